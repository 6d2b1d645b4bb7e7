public import Foundation
public import GRDB
import HLS

/// A subtitle file a person added to an asset (through the API, the edit sheet, or as a
/// sidecar next to the media file), kept as WebVTT and served as one more HLS subtitle
/// rendition beside the ones packaged from the media file itself.
public struct SubtitleFile: Codable, Sendable, Hashable, Identifiable {
    /// `sub-` and eight hexadecimal digits; also the rendition's file names in the bundle.
    public var id: String
    public var assetID: String
    /// A BCP 47 language tag (`en`, `ja`, `pt-BR`), or `nil` when unknown.
    public var language: String?
    /// The rendition's `NAME`, as the player's subtitle menu shows it.
    public var label: String
    /// The format the file came in.
    public var format: SubtitleFormat
    /// Whether the file is forced subtitles (only foreign dialogue or signs).
    public var isForced: Bool
    /// How many cues the file holds.
    public var cueCount: Int
    /// The file as WebVTT, as the rendition serves it.
    public var webVTT: String
    public var createdAt: Date

    public init(
        id: String = "sub-" + UUID().uuidString.prefix(8).lowercased(), assetID: String, language: String?, label: String,
        format: SubtitleFormat, isForced: Bool = false, cueCount: Int, webVTT: String, createdAt: Date = Date()
    ) {
        self.id = id
        self.assetID = assetID
        self.language = language
        self.label = label
        self.format = format
        self.isForced = isForced
        self.cueCount = cueCount
        self.webVTT = webVTT
        self.createdAt = createdAt
    }

    /// The rendition's media playlist, relative to the bundle root.
    public var playlistPath: String { "\(BundleLayout.subtitlesFolder)/\(id).m3u8" }
    /// The WebVTT file, relative to the bundle root.
    public var webVTTPath: String { "\(BundleLayout.subtitlesFolder)/\(id).vtt" }

    /// Whether `id` has the shape the library gives (so it is safe in a path).
    public static func isValidID(_ id: String) -> Bool {
        id.count == 12 && id.hasPrefix("sub-") && id.dropFirst(4).allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}

extension SubtitleFile: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "subtitleFile"

    /// The columns that queries filter and sort on.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let assetID = Column(CodingKeys.assetID)
        public static let createdAt = Column(CodingKeys.createdAt)
    }
}
