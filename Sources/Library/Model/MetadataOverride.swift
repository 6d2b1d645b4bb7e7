public import Foundation
public import GRDB

/// Metadata a person set on an asset that wins over what the media says, like
/// `AVPlayerItem.externalMetadata`. A `nil` field leaves the embedded value showing.
public struct MetadataOverride: Codable, Sendable, Hashable {
    /// The asset it applies to (one override per asset).
    public var assetID: String
    /// Shown instead of the asset's title.
    public var title: String?
    /// Shown instead of the asset's subtitle.
    public var subtitle: String?
    /// Shown instead of the asset's summary.
    public var summary: String?
    /// An artwork URL (absolute, or a path on this server) used instead of the poster frame.
    public var artworkURL: String?
    /// Makes the asset an episode of this series (or moves it to another).
    public var seriesTitle: String?
    /// Shown instead of the asset's season number.
    public var seasonNumber: Int?
    /// Shown instead of the asset's episode number.
    public var episodeNumber: Int?
    /// Shown instead of the asset's episode title.
    public var episodeTitle: String?
    /// Shown instead of the asset's release date (`2024-05-01` or a full ISO 8601 date).
    public var releaseDate: String?
    /// Shown instead of when the asset's live recording started.
    public var liveStartDate: Date?
    /// Shown instead of when the asset's live recording ended.
    public var liveEndDate: Date?

    /// An override of the given fields; those left nil keep the embedded values.
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
    /// The SQLite table that holds overrides, one row per asset.
    public static let databaseTableName = "metadataOverride"
}

/// An asset as a viewer sees it: overrides applied on top of embedded metadata.
public struct DisplayedAsset: Codable, Sendable, Hashable {
    /// The asset as stored.
    public var asset: Asset
    /// The override's title, else the asset's.
    public var title: String
    /// The override's subtitle, else the asset's.
    public var subtitle: String?
    /// The override's summary, else the asset's.
    public var summary: String?
    /// The override's artwork, else the `defaultArtworkURL` given to `displayed(with:defaultArtworkURL:)`.
    public var artworkURL: String?
    /// The series, season and episode it belongs to, with overrides applied.
    public var episode: Episode?
    /// The override's release date, else the asset's.
    public var releaseDate: String?
    /// The override's live start, else the asset's.
    public var liveStartDate: Date?
    /// The override's live end, else the asset's.
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
