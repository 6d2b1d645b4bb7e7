import Foundation
import Library
import LiveActivities
import Playback

/// The Now playing activity: one per playback session that has (or had) a renderer, with
/// the title, artwork, position, rate and paused state. It goes stale when the renderer goes
/// away and ends when the session ends or is removed.
struct NowPlayingActivities: Sendable {
    let center: ActivityCenter
    let sessions: PlaybackSessions
    let library: MediaLibrary

    static func activityID(_ sessionID: String) -> String { "playing-" + sessionID }

    func start() async -> Task<Void, Never> {
        let (changes, continuation) = AsyncStream.makeStream(of: PlaybackSessionChange.self, bufferingPolicy: .bufferingNewest(512))
        await sessions.observe { continuation.yield($0) }
        return Task {
            for await change in changes { await follow(change) }
        }
    }

    func follow(_ change: PlaybackSessionChange) async {
        switch change {
        case .removed(let sessionID):
            _ = try? await center.end(id: Self.activityID(sessionID), content: nil, dismissalPolicy: .immediate)
        case .changed(let session, let attached):
            let id = Self.activityID(session.id)
            let existing = try? await center.snapshot(id: id)
            let now = await center.currentDate
            let state = NowPlayingAttributes.ContentState(
                position: session.currentTime, duration: session.duration, rate: session.rate,
                paused: session.status != .playing, positionDate: now)
            // Without a renderer nothing plays: the activity is stale from now.
            let content = ActivityContent(state: state, staleDate: attached ? nil : now, relevanceScore: session.status == .playing ? 100 : 60)
            if session.status == .ended || session.status == .failed {
                if existing != nil { _ = try? await center.end(id: id, content: content) }
                return
            }
            if existing == nil {
                guard attached, session.status == .playing || session.status == .paused else { return }
                let metadata = session.metadata
                _ = try? await center.request(
                    attributes: NowPlayingAttributes(
                        sessionID: session.id, assetID: session.assetID, title: metadata.title,
                        subtitle: metadata.subtitle, artworkURL: metadata.artworkURL),
                    content: content, id: id)
            } else {
                _ = try? await center.update(id: id, content: content)
            }
        }
    }
}
