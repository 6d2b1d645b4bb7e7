import Foundation
import HTTPTypes
import Library
import LiveActivities

/// Premiere countdowns: an activity for an asset scheduled to start at a time, counting down
/// until then; at the start it turns into "now playing" and it ends when the asset's
/// duration has passed.
struct PremiereActivities: Sendable {
    let center: ActivityCenter
    let library: MediaLibrary

    /// Schedules a premiere of `assetID` at `startsAt`.
    func schedule(assetID: String, startsAt: Date, relevance: Double) async throws -> ActivitySnapshot {
        guard let asset = try await library.asset(id: assetID) else { throw APIError(.notFound, "No asset \(assetID)") }
        let now = await center.currentDate
        // A well-formed date the server's clock rules out (the document cannot say "after now"):
        // the request conflicts with the current time, a 409, as other state-dependent refusals.
        guard startsAt > now else {
            throw APIError(
                .conflict, "startsAt must be in the future (the server's time is \(ISO8601DateFormatter().string(from: now)))", code: "premiere-not-in-future")
        }
        guard startsAt.timeIntervalSince(now) < 7 * 24 * 3600 else {
            throw APIError(
                .conflict, "startsAt must be within a week of the server's time (\(ISO8601DateFormatter().string(from: now)))", code: "premiere-too-far")
        }
        let displayed = try? await library.displayed(asset)
        return try await center.request(
            attributes: PremiereAttributes(
                assetID: assetID, title: displayed?.title ?? asset.title, artworkURL: displayed?.artworkURL,
                duration: asset.duration),
            content: ActivityContent(state: PremiereAttributes.ContentState(phase: "countdown", startsAt: startsAt), relevanceScore: 90))
    }

    func start() -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                await tick()
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    func tick() async {
        let now = await center.currentDate
        for snapshot in await center.list(type: PremiereAttributes.attributesType) where snapshot.state.acceptsUpdates {
            guard let state = try? snapshot.activity.state(as: PremiereAttributes.self),
                let attributes = try? snapshot.activity.attributes(as: PremiereAttributes.self)
            else { continue }
            if state.phase == "countdown", now >= state.startsAt {
                _ = try? await center.update(
                    id: snapshot.activity.id,
                    content: ActivityContent(state: PremiereAttributes.ContentState(phase: "playing", startsAt: state.startsAt), relevanceScore: 95),
                    alert: AlertConfiguration(title: attributes.title, body: "Now playing", sound: "default"))
            } else if state.phase == "playing", now >= state.startsAt.addingTimeInterval(attributes.duration ?? 0) {
                _ = try? await center.end(id: snapshot.activity.id, content: nil)
            }
        }
    }
}
