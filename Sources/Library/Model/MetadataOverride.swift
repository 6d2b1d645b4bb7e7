import Foundation
import GRDB

/// Metadata a person set on an asset that wins over what the media says, like
/// `AVPlayerItem.externalMetadata`. A `nil` field leaves the embedded value showing.
public struct MetadataOverride: Codable, Sendable, Hashable {
    public var assetID: String
    public var title: String?
    public var subtitle: String?
    public var summary: String?
    /// An artwork URL (absolute, or a path on this server) used instead of the poster frame.
    public var artworkURL: String?

    public init(assetID: String, title: String? = nil, subtitle: String? = nil, summary: String? = nil, artworkURL: String? = nil) {
        self.assetID = assetID
        self.title = title
        self.subtitle = subtitle
        self.summary = summary
        self.artworkURL = artworkURL
    }
}

extension MetadataOverride: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "metadataOverride"
}

/// An asset as a viewer sees it: overrides applied on top of embedded metadata.
public struct DisplayedAsset: Codable, Sendable, Hashable {
    public var asset: Asset
    public var title: String
    public var subtitle: String?
    public var summary: String?
    public var artworkURL: String?
}

extension Asset {
    /// Applies an override on top of this asset's own metadata.
    public func displayed(with override: MetadataOverride?, defaultArtworkURL: String?) -> DisplayedAsset {
        DisplayedAsset(
            asset: self,
            title: override?.title ?? title,
            subtitle: override?.subtitle ?? subtitle,
            summary: override?.summary ?? summary,
            artworkURL: override?.artworkURL ?? defaultArtworkURL
        )
    }
}
