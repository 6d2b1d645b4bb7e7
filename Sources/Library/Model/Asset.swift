public import Foundation
public import GRDB

/// One item in the library: where it came from, what it is, and where its HLS bundle lives.
///
/// `title`, `subtitle` and `summary` are what the media itself says (embedded metadata or
/// the file name); a `MetadataOverride` wins over them when shown (see `displayed(with:)`).
public struct Asset: Codable, Sendable, Hashable, Identifiable {
    /// Where an asset is in its life: waiting for ingest, being packaged, playable, or not.
    public enum Status: String, Codable, Sendable, Hashable {
        case pending, processing, ready, failed
    }

    /// What the asset is for: a feature to watch, or an interstitial (ad) to insert.
    public enum Role: String, Codable, Sendable, Hashable {
        case feature, interstitial
    }

    /// A lower-case UUID unless given; also names the asset's bundle folder.
    public var id: String
    /// The title, from the media's metadata or its file name.
    public var title: String
    /// A second line under the title, from the media's metadata.
    public var subtitle: String?
    /// A description, from the media's metadata.
    public var summary: String?
    /// Length in seconds, once probed.
    public var duration: Double?
    /// Picture width in pixels, once probed.
    public var width: Int?
    /// Picture height in pixels, once probed.
    public var height: Int?
    /// The absolute path it was added from, if it came from a file or folder.
    public var sourcePath: String?
    /// Set when the source file has gone; the packaged bundle stays playable.
    public var sourceMissing: Bool
    /// Where it is in its life.
    public var status: Status
    /// A feature or an interstitial.
    public var role: Role
    /// Badges from variant inspection ("4K", "HD", "HDR", "CC", "Multichannel"…).
    public var badges: [String]
    /// When it was added to the library.
    public var createdAt: Date
    /// Series, season and episode, from the file's tags or its name.
    public var seriesTitle: String?
    /// The season number, for an episode.
    public var seasonNumber: Int?
    /// The episode number, for an episode.
    public var episodeNumber: Int?
    /// The episode's own title, for an episode.
    public var episodeTitle: String?
    /// When it was released ("2024-05-01" or a full ISO 8601 date), from its tags.
    public var releaseDate: String?
    /// When a live recording started and ended.
    public var liveStartDate: Date?
    /// When a live recording ended.
    public var liveEndDate: Date?
    /// Set when a person deleted it; it stays restorable until the trash is purged.
    public var deletedAt: Date?
    /// Protected content (rights-managed, private): its frames are never analysed for text
    /// (no Live Text, not in frame-text search), as with `allowsVideoFrameAnalysis` off.
    public var isProtected: Bool = false

    /// An asset with the given fields; by default a new ID, pending, a feature, added now.
    public init(
        id: String = UUID().uuidString.lowercased(), title: String, subtitle: String? = nil, summary: String? = nil,
        duration: Double? = nil, width: Int? = nil, height: Int? = nil, sourcePath: String? = nil,
        sourceMissing: Bool = false, status: Status = .pending, role: Role = .feature, badges: [String] = [],
        createdAt: Date = Date(), episode: Episode? = nil
    ) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.summary = summary
        self.duration = duration
        self.width = width
        self.height = height
        self.sourcePath = sourcePath
        self.sourceMissing = sourceMissing
        self.status = status
        self.role = role
        self.badges = badges
        self.createdAt = createdAt
        self.episode = episode
    }

    /// The series, season and episode stored on the asset, if it is an episode.
    public var episode: Episode? {
        get {
            seriesTitle.map { Episode(seriesTitle: $0, season: seasonNumber, number: episodeNumber, title: episodeTitle) }
        }
        set {
            seriesTitle = newValue?.seriesTitle
            seasonNumber = newValue?.season
            episodeNumber = newValue?.number
            episodeTitle = newValue?.title
        }
    }

    /// Whether the picture is taller than it is wide.
    public var isPortrait: Bool { (height ?? 0) > (width ?? 0) }
}

extension Asset: FetchableRecord, PersistableRecord {
    /// The SQLite table that holds assets.
    public static let databaseTableName = "asset"

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns {
        /// `createdAt`: the library lists newest first.
        public static let createdAt = Column(CodingKeys.createdAt)
        /// `deletedAt`: set for assets in the trash.
        public static let deletedAt = Column(CodingKeys.deletedAt)
        /// `isProtected`: protected assets are left out of frame analysis.
        public static let isProtected = Column(CodingKeys.isProtected)
    }
}
