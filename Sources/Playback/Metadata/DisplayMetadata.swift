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

    public init(title: String, subtitle: String? = nil, description: String? = nil, artworkURL: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.description = description
        self.artworkURL = artworkURL
    }
}
