public import Foundation
public import GRDB

/// How far one viewer got in one asset, and whether they finished it: what the home screen's
/// Continue watching and Next up rows are made of.
///
/// Kept per viewer (an account, or the local user of a loopback server), so one person's
/// progress never shows on another's home screen. Unlike `PlaybackPosition`, reaching the end
/// is kept (`finished`) rather than forgotten, because Next up needs to know what was watched.
public struct ViewingProgress: Codable, Sendable, Hashable {
    /// Who watched: `ViewerKey`'s text ("account:7", "local").
    public var viewer: String
    /// The asset watched.
    public var assetID: String
    /// Seconds into the asset where the viewer stopped (the duration once finished).
    public var position: Double
    /// The asset's length in seconds as the player knew it.
    public var duration: Double?
    /// Whether the viewer played it to the end.
    public var finished: Bool
    /// When this was last written.
    public var updatedAt: Date

    /// Progress of `viewer` in `assetID`.
    public init(viewer: String, assetID: String, position: Double, duration: Double?, finished: Bool = false, updatedAt: Date = Date()) {
        self.viewer = viewer
        self.assetID = assetID
        self.position = position
        self.duration = duration
        self.finished = finished
        self.updatedAt = updatedAt
    }

    /// How much is watched, 0...1, when the duration is known (1 once finished).
    public var fraction: Double? {
        if finished { return 1 }
        return PlaybackPosition(assetID: assetID, position: position, duration: duration).fraction
    }

    /// Seconds left to watch, when the duration is known.
    public var remaining: Double? {
        duration.map { max(0, $0 - position) }
    }

    /// Started and not finished: past the first five seconds and short of the end as the
    /// player's resume rule counts it (`PlaybackPosition.resumeTime`), so a Continue watching
    /// card always resumes where it says.
    public var isInProgress: Bool {
        !finished && PlaybackPosition(assetID: assetID, position: position, duration: duration).resumeTime != nil
    }

    /// Finished, or stopped so close to the end that the player would start over.
    public var isWatched: Bool {
        guard !finished else { return true }
        guard position >= 5, let duration, duration > 0 else { return false }
        return PlaybackPosition(assetID: assetID, position: position, duration: duration).resumeTime == nil
    }
}

extension ViewingProgress: FetchableRecord, PersistableRecord {
    /// The SQLite table that holds viewing progress, one row per viewer and asset.
    public static let databaseTableName = "viewingProgress"

    /// The columns queries filter and sort on.
    public enum Columns {
        /// `viewer`: every query is one viewer's.
        public static let viewer = Column(CodingKeys.viewer)
        /// `updatedAt`: most recent first.
        public static let updatedAt = Column(CodingKeys.updatedAt)
    }
}
