/// What the player shows about the item it plays: title, subtitle, description and artwork.
///
/// The library fills it from embedded metadata with any external overrides applied on top,
/// the way `AVPlayerItem.externalMetadata` wins over an asset's own metadata.
public struct DisplayMetadata: Sendable, Hashable, Codable {
    public var title: String
    public var subtitle: String?
    public var description: String?
    /// A URL path to the artwork image, served by the server.
    public var artworkURL: String?
    /// For an episode: the series' title (also `title`) and "S1 · E2 — Title" (also `subtitle`).
    public var seriesTitle: String?
    public var episodeLabel: String?
    /// ISO 8601 dates: when it was released, and when a live recording started and ended.
    public var releaseDate: String?
    public var liveStartDate: String?
    public var liveEndDate: String?

    public init(
        title: String, subtitle: String? = nil, description: String? = nil, artworkURL: String? = nil,
        seriesTitle: String? = nil, episodeLabel: String? = nil, releaseDate: String? = nil,
        liveStartDate: String? = nil, liveEndDate: String? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.description = description
        self.artworkURL = artworkURL
        self.seriesTitle = seriesTitle
        self.episodeLabel = episodeLabel
        self.releaseDate = releaseDate
        self.liveStartDate = liveStartDate
        self.liveEndDate = liveEndDate
    }
}
