import Clocks
import Foundation
import Library
import LiveActivities
import Playback

/// The Now playing activity: one per playback session that has (or had) a renderer, with
/// the title, artwork, position, rate and paused state. It goes stale when the renderer goes
/// away, ends (dismissed at once) when no renderer came back within `closedPlayerGrace` — a
/// closed player, not a reload — and ends when the session ends or is removed.
struct NowPlayingActivities: Sendable {
    let center: ActivityCenter
    let sessions: PlaybackSessions
    let library: MediaLibrary
    /// How long a session may be without a renderer before its activity ends: a reload or a
    /// dropped socket comes back sooner; a closed tab does not (the session itself lingers
    /// ten minutes so it can be continued elsewhere, which is too long for an island).
    static let closedPlayerGrace: Duration = .seconds(20)
    let closing = ClosingPlayers()

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
            await closing.cancel(sessionID)
            _ = try? await center.end(id: Self.activityID(sessionID), content: nil, dismissalPolicy: .immediate)
        case .changed(let session, let attached, let watching):
            let id = Self.activityID(session.id)
            let existing = try? await center.snapshot(id: id)
            let now = await center.currentDate
            var state = NowPlayingAttributes.ContentState(
                position: session.currentTime, duration: session.duration, rate: session.rate,
                paused: session.status != .playing, positionDate: now)
            // At the end, an Up Next offer keeps the activity: it says what plays next, and when.
            let offer: (item: UpNextItem, deadline: Date?)? = if case .offered(let item, let deadline) = session.upNext { (item, deadline) } else { nil }
            state.upNextTitle = offer?.item.title
            state.upNextDate = offer?.deadline
            state.watching = watching
            // Without a renderer nothing plays: the activity is stale from now.
            let content = ActivityContent(state: state, staleDate: attached ? nil : now, relevanceScore: session.status == .playing ? 100 : 60)
            if session.status == .ended, offer != nil, existing != nil {
                _ = try? await center.update(id: id, content: content)
                return
            }
            if session.status == .ended || session.status == .failed {
                await closing.cancel(session.id)
                if existing != nil { _ = try? await center.end(id: id, content: content) }
                return
            }
            if attached {
                await closing.cancel(session.id)
            } else if existing != nil {
                await closing.start(session.id) { [center] in
                    try? await center.clock.sleep(for: Self.closedPlayerGrace)
                    guard !Task.isCancelled else { return }
                    _ = try? await center.end(id: id, content: nil, dismissalPolicy: .immediate)
                }
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

/// The sessions whose renderer went away, each with the timer that ends its activity unless a
/// renderer comes back first.
actor ClosingPlayers {
    private var timers: [String: (token: UInt64, task: Task<Void, Never>)] = [:]
    private var issued: UInt64 = 0

    func start(_ sessionID: String, _ body: @escaping @Sendable () async -> Void) {
        guard timers[sessionID] == nil else { return }
        issued += 1
        let token = issued
        timers[sessionID] = (
            token,
            Task {
                await body()
                self.finished(sessionID, token: token)
            }
        )
    }

    func cancel(_ sessionID: String) {
        timers.removeValue(forKey: sessionID)?.task.cancel()
    }

    private func finished(_ sessionID: String, token: UInt64) {
        if timers[sessionID]?.token == token { timers[sessionID] = nil }
    }
}
