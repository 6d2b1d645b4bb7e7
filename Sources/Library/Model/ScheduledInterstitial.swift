import Foundation
public import GRDB

/// An interstitial (another library asset, such as an ad) scheduled into an asset's playback.
public struct ScheduledInterstitial: Codable, Sendable, Hashable, Identifiable {
    public var id: Int64?
    public var assetID: String
    public var interstitialAssetID: String
    /// Primary time in seconds; ignored for pre- and post-rolls.
    public var time: Double
    /// "none", "joinCue" (pre-roll) or "leaveCue" (post-roll).
    public var cue: String
    public var resumptionOffset: Double
    /// Whether the viewer must watch it at 1× and may not seek over it.
    public var restricted: Bool

    public init(assetID: String, interstitialAssetID: String, time: Double, cue: String = "none", resumptionOffset: Double = 0, restricted: Bool = true) {
        self.assetID = assetID
        self.interstitialAssetID = interstitialAssetID
        self.time = time
        self.cue = cue
        self.resumptionOffset = resumptionOffset
        self.restricted = restricted
    }
}

extension ScheduledInterstitial: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "interstitial"

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns {
        public static let assetID = Column(CodingKeys.assetID)
        public static let time = Column(CodingKeys.time)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
