public import Foundation
public import Library
import Playback

/// Stores where each viewer stopped, from the time reports and intents a player already
/// sends its session: at most every `interval` while playing, at once on a pause, once more
/// when the renderer's connection ends, and forgotten when playback reaches the end (so the
/// next viewing starts from the top).
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
    /// Whose session each is (`MarqueeRequestContext.viewerKey`), for per-viewer progress.
    private var viewers: [String: String] = [:]

    public init(library: MediaLibrary, sessions: PlaybackSessions, interval: TimeInterval = 5) {
        self.library = library
        self.sessions = sessions
        self.interval = interval
    }

    /// Remembers whose session `sessionID` is, so its progress is also kept as that viewer's
    /// (`ViewingProgress`, the home screen's rows); a session nobody registered keeps only the
    /// shared position.
    func register(sessionID: String, viewer: String?) {
        viewers[sessionID] = viewer
    }

    /// After a report or an intent: stores the position when paused or when the last write
    /// is older than `interval`.
    func observe(sessionID: String, now: Date = Date()) async {
        guard let session = await sessions.session(id: sessionID) else {
            viewers.removeValue(forKey: sessionID)
            return
        }
        let decision = Self.decide(
            status: session.status, time: session.currentTime, duration: session.duration,
            inInterstitial: session.activeInterstitial != nil,
            last: lastWritten[sessionID], now: now, interval: interval, final: false)
        await apply(decision, session: session, now: now)
    }

    /// When the renderer disconnects: stores the last position it reported.
    func flush(sessionID: String, now: Date = Date()) async {
        defer { lastWritten.removeValue(forKey: sessionID) }
        guard let session = await sessions.session(id: sessionID) else { return }
        let decision = Self.decide(
            status: session.status, time: session.currentTime, duration: session.duration,
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
            // The viewer's own progress first: the shared position's change is what tells open
            // library pages to reload, and they should then find this already written.
            if let viewer = viewers[session.id] {
                let end = session.duration ?? session.currentTime
                await record(
                    ViewingProgress(
                        viewer: viewer, assetID: session.assetID, position: end, duration: session.duration, finished: true, updatedAt: now))
            }
            await write(nil, assetID: session.assetID)
        case .store(let time):
            lastWritten[session.id] = (time, now)
            if let viewer = viewers[session.id] {
                await record(ViewingProgress(viewer: viewer, assetID: session.assetID, position: time, duration: session.duration, updatedAt: now))
            }
            await write(
                PlaybackPosition(assetID: session.assetID, position: time, duration: session.duration, updatedAt: now),
                assetID: session.assetID)
        }
    }

    /// Writes a viewer's progress in a task of its own, like `write(_:assetID:)`.
    private func record(_ progress: ViewingProgress) async {
        let library = library
        await Task { try? await library.recordViewing(progress) }.value
    }

    /// Writes in a task of its own: the last flush runs as the renderer's connection closes,
    /// when its handler is already cancelled (and the store would refuse a cancelled write).
    private func write(_ position: PlaybackPosition?, assetID: String) async {
        let library = library
        await Task { try? await library.setPosition(position, for: assetID) }.value
    }

    /// The rule: nothing while loading, failed or in an ad; forget at the end; otherwise
    /// store when `interval` has passed since the last write (or at the final flush) and the
    /// time moved.
    static func decide(
        status: PlaybackSession.Status, time: Double, duration: Double?, inInterstitial: Bool,
        last: (time: Double, at: Date)?, now: Date, interval: TimeInterval, final: Bool
    ) -> Decision {
        switch status {
        case .loading, .failed: return .skip
        case .ended: return last?.time == 0 ? .skip : .forget
        case .paused, .playing, .waiting: break
        }
        // Nothing watched yet: keep what an earlier viewing stored.
        guard !inInterstitial, time.isFinite, time >= 1 else { return .skip }
        if let last, abs(last.time - time) < 0.5 { return .skip }
        // While playing, every `interval`; a pause (or the page going away) stores at once.
        if !final, status != .paused, let last, now.timeIntervalSince(last.at) < interval { return .skip }
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
        self.init(
            title: title, subtitle: subtitle, description: shown.summary, artworkURL: shown.artworkURL,
            seriesTitle: shown.episode?.seriesTitle, episodeLabel: label, releaseDate: shown.releaseDate,
            liveStartDate: shown.liveStartDate.map { iso.string(from: $0) },
            liveEndDate: shown.liveEndDate.map { iso.string(from: $0) })
    }
}
