public import Foundation
public import GRDB

/// Metadata a person set on an asset that wins over what the media says, like
/// `AVPlayerItem.externalMetadata`. A `nil` field leaves the embedded value showing.
public struct MetadataOverride: Codable, Sendable, Hashable {
    public var assetID: String
    public var title: String?
    public var subtitle: String?
    public var summary: String?
    /// An artwork URL (absolute, or a path on this server) used instead of the poster frame.
    public var artworkURL: String?
    public var seriesTitle: String?
    public var seasonNumber: Int?
    public var episodeNumber: Int?
    public var episodeTitle: String?
    public var releaseDate: String?
    public var liveStartDate: Date?
    public var liveEndDate: Date?

    public init(
        assetID: String, title: String? = nil, subtitle: String? = nil, summary: String? = nil, artworkURL: String? = nil,
        seriesTitle: String? = nil, seasonNumber: Int? = nil, episodeNumber: Int? = nil, episodeTitle: String? = nil,
        releaseDate: String? = nil, liveStartDate: Date? = nil, liveEndDate: Date? = nil
    ) {
        self.assetID = assetID
        self.title = title
        self.subtitle = subtitle
        self.summary = summary
        self.artworkURL = artworkURL
        self.seriesTitle = seriesTitle
        self.seasonNumber = seasonNumber
        self.episodeNumber = episodeNumber
        self.episodeTitle = episodeTitle
        self.releaseDate = releaseDate
        self.liveStartDate = liveStartDate
        self.liveEndDate = liveEndDate
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
    /// The series, season and episode it belongs to, with overrides applied.
    public var episode: Episode?
    public var releaseDate: String?
    public var liveStartDate: Date?
    public var liveEndDate: Date?
}

extension Asset {
    /// Applies an override on top of this asset's own metadata.
    public func displayed(with override: MetadataOverride?, defaultArtworkURL: String?) -> DisplayedAsset {
        DisplayedAsset(
            asset: self,
            title: override?.title ?? title,
            subtitle: override?.subtitle ?? subtitle,
            summary: override?.summary ?? summary,
            artworkURL: override?.artworkURL ?? defaultArtworkURL,
            episode: (override?.seriesTitle ?? seriesTitle).map {
                Episode(
                    seriesTitle: $0, season: override?.seasonNumber ?? seasonNumber,
                    number: override?.episodeNumber ?? episodeNumber, title: override?.episodeTitle ?? episodeTitle)
            },
            releaseDate: override?.releaseDate ?? releaseDate,
            liveStartDate: override?.liveStartDate ?? liveStartDate,
            liveEndDate: override?.liveEndDate ?? liveEndDate
        )
    }
}
