import Foundation
import Library
import Playback

/// Stores where each viewer stopped, from the time reports a player already sends its
/// session: at most every `interval` while playing, once more when the page goes away, and
/// forgotten when playback reaches the end (so the next viewing starts from the top).
public actor PlaybackPositionRecorder {
    /// What to do with a session's position now.
    enum Decision: Equatable {
        case store(Double)
        case forget
        case skip
    }

    let library: MediaLibrary
    let sessions: PlaybackSessions
    let interval: TimeInterval
    private var lastWritten: [String: (time: Double, at: Date)] = [:]

    public init(library: MediaLibrary, sessions: PlaybackSessions, interval: TimeInterval = 5) {
        self.library = library
        self.sessions = sessions
        self.interval = interval
    }

    /// After a report: stores the position when the last write is older than `interval`.
    func observe(sessionID: String, now: Date = Date()) async {
        guard let session = await sessions.session(id: sessionID) else { return }
        let decision = Self.decide(status: session.status, time: session.currentTime, duration: session.duration,
                                   inInterstitial: session.activeInterstitial != nil,
                                   last: lastWritten[sessionID], now: now, interval: interval, final: false)
        await apply(decision, session: session, now: now)
    }

    /// When the renderer disconnects: stores the last position it reported.
    func flush(sessionID: String, now: Date = Date()) async {
        defer { lastWritten.removeValue(forKey: sessionID) }
        guard let session = await sessions.session(id: sessionID) else { return }
        let decision = Self.decide(status: session.status, time: session.currentTime, duration: session.duration,
                                   inInterstitial: session.activeInterstitial != nil,
                                   last: lastWritten[sessionID], now: now, interval: interval, final: true)
        await apply(decision, session: session, now: now)
    }

    private func apply(_ decision: Decision, session: PlaybackSession, now: Date) async {
        switch decision {
        case .skip:
            return
        case .forget:
            lastWritten[session.id] = (0, now)
            try? await library.store.setPosition(nil, for: session.assetID)
        case .store(let time):
            lastWritten[session.id] = (time, now)
            try? await library.store.setPosition(
                PlaybackPosition(assetID: session.assetID, position: time, duration: session.duration, updatedAt: now), for: session.assetID)
        }
    }

    /// The rule: nothing while loading, failed or in an ad; forget at the end; otherwise
    /// store when `interval` has passed since the last write (or at the final flush) and the
    /// time moved.
    static func decide(status: PlaybackSession.Status, time: Double, duration: Double?, inInterstitial: Bool,
                       last: (time: Double, at: Date)?, now: Date, interval: TimeInterval, final: Bool) -> Decision {
        switch status {
        case .loading, .failed: return .skip
        case .ended: return last?.time == 0 ? .skip : .forget
        case .paused, .playing, .waiting: break
        }
        guard !inInterstitial, time.isFinite, time >= 0 else { return .skip }
        if let last, abs(last.time - time) < 0.5 { return .skip }
        if !final, let last, now.timeIntervalSince(last.at) < interval { return .skip }
        return .store(time)
    }
}

extension DisplayMetadata {
    /// What the player shows for a library item: an episode as its series' title with
    /// "S1 · E2 — Title" beneath, plus its release and live dates.
    init(_ shown: DisplayedAsset) {
        let iso = ISO8601DateFormatter()
        var title = shown.title
        var subtitle = shown.subtitle
        var label: String?
        if let episode = shown.episode {
            var named = episode
            // A title of its own (one that is not just the file's "Show - S01E02") names the episode.
            if named.title == nil, !shown.title.localizedCaseInsensitiveContains(episode.seriesTitle) { named.title = shown.title }
            title = episode.seriesTitle
            label = named.label.isEmpty ? shown.title : named.label
            subtitle = label
        }
        self.init(title: title, subtitle: subtitle, description: shown.summary, artworkURL: shown.artworkURL,
                  seriesTitle: shown.episode?.seriesTitle, episodeLabel: label, releaseDate: shown.releaseDate,
                  liveStartDate: shown.liveStartDate.map { iso.string(from: $0) },
                  liveEndDate: shown.liveEndDate.map { iso.string(from: $0) })
    }
}
