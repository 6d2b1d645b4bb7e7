public import Foundation
public import GRDB

/// Where a viewer stopped in an asset, stored so the player can resume there and the
/// library card can show how much is watched.
public struct PlaybackPosition: Codable, Sendable, Hashable {
    /// The asset watched.
    public var assetID: String
    /// Seconds into the asset.
    public var position: Double
    /// The asset's length in seconds as the player knew it, for `fraction`.
    public var duration: Double?
    /// When the position was saved.
    public var updatedAt: Date

    /// A position `position` seconds into `assetID`.
    public init(assetID: String, position: Double, duration: Double?, updatedAt: Date = Date()) {
        self.assetID = assetID
        self.position = position
        self.duration = duration
        self.updatedAt = updatedAt
    }

    /// How much is watched, 0...1, when the duration is known.
    public var fraction: Double? {
        guard let duration, duration > 0 else { return nil }
        return min(max(position / duration, 0), 1)
    }

    /// Where the player should start: the stored position, unless it is in the first five
    /// seconds or close enough to the end (the last 5 %, or the last three seconds) to count
    /// as finished.
    public var resumeTime: Double? {
        guard position >= 5 else { return nil }
        if let duration, duration > 0, position >= duration * 0.95 || duration - position < 3 { return nil }
        return position
    }
}

extension PlaybackPosition: FetchableRecord, PersistableRecord {
    /// The SQLite table that holds positions, one row per asset.
    public static let databaseTableName = "playbackPosition"
}
