public import Foundation

/// The seam between the library and whatever probes and packages media.
///
/// `BundlePackager` implements it in process with MediaCore (FFmpeg's libraries).
public protocol BundlePackaging: Sendable {
    /// Reads duration, picture size, tracks and embedded metadata.
    func probe(_ source: URL) async throws -> MediaProbe

    /// Packages `source` as CMAF (fMP4) HLS into `bundle` (which exists and is empty), with
    /// `master.m3u8`, per-variant and per-rendition playlists, WebVTT subtitles, a poster
    /// frame and trick-play thumbnails. Reports the phase it is in and its progress 0...1
    /// (`PackagingProgress`), in order.
    func package(
        _ source: URL, probe: MediaProbe, into bundle: URL,
        progress: @escaping @Sendable (PackagingProgress) async -> Void
    ) async throws -> PackagedBundle

    /// Adds a poster frame and trick-play images to a bundle that arrived already packaged
    /// (an offline download), reading its `master.m3u8`; `artwork` names an image already in
    /// the bundle to use as the poster instead of a frame.
    func decorate(bundle: URL, duration: Double, artwork: String?) async throws -> PackagedBundle
}

/// What a probe found in a media file.
public struct MediaProbe: Sendable, Hashable, Codable {
    /// An audio or subtitle track.
    public struct Track: Sendable, Hashable, Codable {
        /// Two-letter language code when the file says one.
        public var language: String?
        /// The track's title tag.
        public var title: String?
    }

    /// Length in seconds, as the container says.
    public var duration: Double
    /// Picture width in pixels; nil without video.
    public var width: Int?
    /// Picture height in pixels; nil without video.
    public var height: Int?
    /// The title tag.
    public var title: String?
    /// A subtitle from the tags.
    public var subtitle: String?
    /// A description from the tags.
    public var summary: String?
    /// The audio tracks, in file order.
    public var audioTracks: [Track]
    /// The subtitle tracks, in file order.
    public var subtitleTracks: [Track]
    /// Series, season and episode from the container's tags.
    public var episode: Episode? = nil
    /// The release date the tags give ("2024-05-01", or a year).
    public var releaseDate: String? = nil
    /// When a live recording started and ended (`live_start_date` / `live_end_date` tags).
    public var liveStartDate: Date? = nil
    /// When a live recording ended (`live_end_date`).
    public var liveEndDate: Date? = nil

    /// Whether the file has a picture (a size was found).
    public var hasVideo: Bool { width != nil && height != nil }
}

/// The files a packager wrote, relative to the bundle folder.
public struct PackagedBundle: Sendable, Hashable, Codable {
    /// The root playlist (`master.m3u8`).
    public var multivariantPlaylist: String
    /// The poster image, when one was made or given.
    public var poster: String?
    /// Trick-play sprite sheet and its JSON description (`TrickPlayImages`).
    public var trickPlay: String?
    /// How long the packaged media plays, in seconds: what the player will show, which a
    /// damaged file's header can overstate (a truncated recording).
    public var duration: Double?

    /// A description of the files a packager wrote.
    public init(multivariantPlaylist: String, poster: String?, trickPlay: String?, duration: Double? = nil) {
        self.multivariantPlaylist = multivariantPlaylist
        self.poster = poster
        self.trickPlay = trickPlay
        self.duration = duration
    }
}

/// How the trick-play sprite sheet is laid out: one tile per `interval` seconds, row by row.
public struct TrickPlayImages: Sendable, Hashable, Codable {
    /// The sprite sheet's file name in the bundle.
    public var image: String
    /// Seconds of media per tile.
    public var interval: Double
    /// Tiles across the sheet.
    public var columns: Int
    /// Tiles down the sheet.
    public var rows: Int
    /// One tile's width in pixels.
    public var tileWidth: Int
    /// One tile's height in pixels.
    public var tileHeight: Int
    /// How many tiles hold a picture (the last row may be partly empty).
    public var count: Int
}
