public import Foundation

/// An offline download in progress (`Downloads`, run by the server's download service).
public struct DownloadingAttributes: ActivityAttributes {
    /// `Downloading`.
    public static let attributesType = "Downloading"
    /// How far the download is.
    public struct ContentState: Codable, Sendable, Hashable {
        /// `queued`, `downloading`, `paused`, `failed`, `importing`, `finished`, `cancelled`.
        public var phase: String
        /// Bytes in the bundle so far.
        public var bytesWritten: Int64
        /// The expected final size in bytes, once it can be estimated.
        public var expectedBytes: Int64?
        /// 0…100, whole numbers.
        public var percent: Int
        /// Seconds left at the current rate, when it can be estimated.
        public var secondsRemaining: Double?
        /// The current rate, in bytes per second.
        public var bytesPerSecond: Double
        /// The download's message: why it failed, when it did.
        public var message: String?
        /// A state with the given values.
        public init(
            phase: String, bytesWritten: Int64, expectedBytes: Int64?, percent: Int, secondsRemaining: Double?,
            bytesPerSecond: Double, message: String?
        ) {
            self.phase = phase
            self.bytesWritten = bytesWritten
            self.expectedBytes = expectedBytes
            self.percent = percent
            self.secondsRemaining = secondsRemaining
            self.bytesPerSecond = bytesPerSecond
            self.message = message
        }
    }
    /// The download service's ID for the download.
    public var downloadID: String
    /// The title being downloaded.
    public var title: String
    /// Artwork to show beside it.
    public var artworkURL: String?
    /// The attributes of the download `downloadID`.
    public init(downloadID: String, title: String, artworkURL: String? = nil) {
        self.downloadID = downloadID
        self.title = title
        self.artworkURL = artworkURL
    }
}

/// A playback session with a renderer (a player page, a TV).
public struct NowPlayingAttributes: ActivityAttributes {
    /// `NowPlaying`.
    public static let attributesType = "NowPlaying"
    /// Where playback is.
    public struct ContentState: Codable, Sendable, Hashable {
        /// Seconds into the item, at `positionDate`.
        public var position: Double
        /// The item's length in seconds, when known.
        public var duration: Double?
        /// The playback rate (1 is normal speed).
        public var rate: Double
        /// Whether playback is paused (the position then stays put).
        public var paused: Bool
        /// When `position` was read; a page moves it on at `rate` from here.
        public var positionDate: Date
        /// At the end of the item: what the session offers next ("Up next: S1 · E2").
        public var upNextTitle: String?
        /// When the offered item plays by itself (absent: it waits for the viewer).
        public var upNextDate: Date?
        /// How many people watch this session together ("Watching together · 3"); absent alone.
        public var watching: Int?
        /// A state with the given values.
        public init(
            position: Double, duration: Double?, rate: Double, paused: Bool, positionDate: Date, upNextTitle: String? = nil,
            upNextDate: Date? = nil, watching: Int? = nil
        ) {
            self.position = position
            self.duration = duration
            self.rate = rate
            self.paused = paused
            self.positionDate = positionDate
            self.upNextTitle = upNextTitle
            self.upNextDate = upNextDate
            self.watching = watching
        }
    }
    /// The playback session shown.
    public var sessionID: String
    /// The asset it plays.
    public var assetID: String
    /// The asset's title.
    public var title: String
    /// The second line of the session's display metadata.
    public var subtitle: String?
    /// Artwork to show beside it.
    public var artworkURL: String?
    /// The attributes of session `sessionID` playing `assetID`.
    public init(sessionID: String, assetID: String, title: String, subtitle: String?, artworkURL: String?) {
        self.sessionID = sessionID
        self.assetID = assetID
        self.title = title
        self.subtitle = subtitle
        self.artworkURL = artworkURL
    }
}

/// The library's ingest jobs in progress.
public struct IngestAttributes: ActivityAttributes {
    /// `Ingest`.
    public static let attributesType = "Ingest"
    /// The queue's state.
    public struct ContentState: Codable, Sendable, Hashable {
        /// Jobs queued or running (0 once all are done).
        public var count: Int
        /// The title of the asset being packaged.
        public var currentTitle: String?
        /// How far that job is, 0…100.
        public var percent: Int
        /// A state with the given values.
        public init(count: Int, currentTitle: String?, percent: Int) {
            self.count = count
            self.currentTitle = currentTitle
            self.percent = percent
        }
    }
    /// The library's name (`Marquee` unless given).
    public var library: String
    /// The attributes of the library named `library`.
    public init(library: String = "Marquee") { self.library = library }
}

/// A scheduled premiere: counts down to `startsAt`, then shows the asset as now playing.
public struct PremiereAttributes: ActivityAttributes {
    /// `Premiere`.
    public static let attributesType = "Premiere"
    /// Before or after the start.
    public struct ContentState: Codable, Sendable, Hashable {
        /// `countdown` before the start, `playing` after it.
        public var phase: String
        /// When the premiere starts.
        public var startsAt: Date
        /// A state in `phase` for a premiere at `startsAt`.
        public init(phase: String, startsAt: Date) {
            self.phase = phase
            self.startsAt = startsAt
        }
    }
    /// The asset that premieres.
    public var assetID: String
    /// Its title.
    public var title: String
    /// Artwork to show beside it.
    public var artworkURL: String?
    /// Its length in seconds, when known.
    public var duration: Double?
    /// The attributes of the premiere of `assetID`.
    public init(assetID: String, title: String, artworkURL: String?, duration: Double?) {
        self.assetID = assetID
        self.title = title
        self.artworkURL = artworkURL
        self.duration = duration
    }
}
