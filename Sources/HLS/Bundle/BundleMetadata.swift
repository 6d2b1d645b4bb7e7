public import Foundation
public import JSONDocument

/// What a bundle's `metadata.json` says: its title and artwork, where it came from, and — for
/// an offline download — what was downloaded. Versioned: version 1 is what downloads wrote
/// before this type existed (no `version` key, root playlist `index.m3u8`); `decode` reads
/// both and always returns the current version.
public struct BundleMetadata: Codable, Sendable, Hashable {
    /// The version this type writes and `decode` upgrades to.
    public static let currentVersion = 2

    /// One downloaded rendition.
    public struct Item: Codable, Sendable, Hashable {
        /// What the rendition is for: `video`, `audio`, `subtitles` or `iFrames`.
        public var role: String
        /// The folder in the bundle that holds its playlist and segments.
        public var folder: String
        /// The media playlist it was downloaded from (an absolute URL).
        public var sourceURL: String
        /// How many bytes of it were written.
        public var bytes: Int
        /// The variant's `BANDWIDTH`, in bits per second, for a variant.
        public var bandwidth: Int?
        /// The variant's `RESOLUTION` (`1920x1080`), for a video variant.
        public var resolution: String?
        /// The variant's `CODECS`, as written.
        public var codecs: [String]
        /// The rendition's `LANGUAGE`, for an alternative rendition.
        public var language: String?
        /// The rendition's `NAME`, for an alternative rendition.
        public var name: String?
        /// The rendition's `GROUP-ID`, for an alternative rendition.
        public var groupID: String?

        /// An item with the given description.
        public init(
            role: String, folder: String, sourceURL: String, bytes: Int, bandwidth: Int? = nil, resolution: String? = nil,
            codecs: [String] = [], language: String? = nil, name: String? = nil, groupID: String? = nil
        ) {
            self.role = role
            self.folder = folder
            self.sourceURL = sourceURL
            self.bytes = bytes
            self.bandwidth = bandwidth
            self.resolution = resolution
            self.codecs = codecs
            self.language = language
            self.name = name
            self.groupID = groupID
        }
    }

    /// One interstitial asset downloaded beside the primary.
    public struct Interstitial: Codable, Sendable, Hashable {
        /// The folder in the bundle that holds the interstitial's own bundle.
        public var folder: String
        /// Where the interstitial asset was downloaded from (an absolute URL).
        public var sourceURL: String
        /// How many bytes of it were written.
        public var bytes: Int

        /// An interstitial kept in `folder`.
        public init(folder: String, sourceURL: String, bytes: Int) {
            self.folder = folder
            self.sourceURL = sourceURL
            self.bytes = bytes
        }
    }

    /// The format version; `decode` always returns `currentVersion`.
    public var version: Int
    /// The title to show; `decode` turns an empty one into nil.
    public var title: String?
    /// The multivariant playlist the bundle was downloaded from (an absolute URL), when known.
    public var sourceURL: String?
    /// The root playlist's name (`BundleLayout.multivariantPlaylist` from version 2 on).
    public var playlist: String
    /// An image file directly in the bundle (never a path).
    public var artwork: String?
    /// The download's content configuration, as the command line or API gave it.
    public var configuration: JSONValue?
    /// The renditions downloaded, one per media playlist.
    public var items: [Item]
    /// The interstitial assets downloaded beside the primary.
    public var interstitials: [Interstitial]
    /// The bytes of every item and interstitial added up.
    public var totalBytes: Int?
    /// What the download left out or worked around, one sentence each.
    public var warnings: [String]
    /// When the download started, as ISO 8601 text.
    public var startedAt: String?
    /// When the download finished, as ISO 8601 text.
    public var completedAt: String?

    /// Metadata of the current version.
    public init(
        title: String?, sourceURL: String?, playlist: String = BundleLayout.multivariantPlaylist, artwork: String? = nil,
        configuration: JSONValue? = nil, items: [Item] = [], interstitials: [Interstitial] = [], totalBytes: Int? = nil,
        warnings: [String] = [], startedAt: String? = nil, completedAt: String? = nil
    ) {
        version = Self.currentVersion
        self.title = title
        self.sourceURL = sourceURL
        self.playlist = playlist
        self.artwork = artwork
        self.configuration = configuration
        self.items = items
        self.interstitials = interstitials
        self.totalBytes = totalBytes
        self.warnings = warnings
        self.startedAt = startedAt
        self.completedAt = completedAt
    }

    enum CodingKeys: String, CodingKey {
        case version, title, sourceURL, playlist, artwork, configuration, items, interstitials, totalBytes, warnings, startedAt, completedAt
    }

    /// Decodes any version; a missing `version` key means version 1. Prefer `decode(from:)`, which also cleans the values.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decodeIfPresent(Int.self, forKey: .version) ?? 1
        title = try c.decodeIfPresent(String.self, forKey: .title)
        sourceURL = try c.decodeIfPresent(String.self, forKey: .sourceURL)
        playlist =
            try c.decodeIfPresent(String.self, forKey: .playlist)
            ?? (version == 1 ? BundleLayout.legacyMultivariantPlaylists[0] : BundleLayout.multivariantPlaylist)
        artwork = try c.decodeIfPresent(String.self, forKey: .artwork)
        configuration = try c.decodeIfPresent(JSONValue.self, forKey: .configuration)
        items = try c.decodeIfPresent([Item].self, forKey: .items) ?? []
        interstitials = try c.decodeIfPresent([Interstitial].self, forKey: .interstitials) ?? []
        totalBytes = try c.decodeIfPresent(Int.self, forKey: .totalBytes)
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings) ?? []
        startedAt = try c.decodeIfPresent(String.self, forKey: .startedAt)
        completedAt = try c.decodeIfPresent(String.self, forKey: .completedAt)
    }

    /// Reads `metadata.json` of any version. Titles that are empty become nil; an artwork
    /// name that is a path is dropped (it must be a file in the bundle's root).
    public static func decode(from data: Data) throws -> BundleMetadata {
        var metadata = try JSONDecoder().decode(BundleMetadata.self, from: data)
        if metadata.title?.isEmpty == true { metadata.title = nil }
        if let artwork = metadata.artwork, artwork.isEmpty || artwork.contains("/") || artwork == ".." { metadata.artwork = nil }
        if metadata.playlist.contains("/") { metadata.playlist = BundleLayout.multivariantPlaylist }
        metadata.version = currentVersion
        return metadata
    }

    /// The JSON written to `metadata.json`: indented, keys sorted, a final newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
