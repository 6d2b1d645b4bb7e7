public import Foundation

/// An offline download in progress (`Downloads`, run by the server's download service).
public struct DownloadingAttributes: ActivityAttributes {
    public static let attributesType = "Downloading"
    public struct ContentState: Codable, Sendable, Hashable {
        /// `queued`, `downloading`, `paused`, `failed`, `importing`, `finished`, `cancelled`.
        public var phase: String
        public var bytesWritten: Int64
        public var expectedBytes: Int64?
        /// 0…100, whole numbers.
        public var percent: Int
        public var secondsRemaining: Double?
        public var bytesPerSecond: Double
        public var message: String?
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
    public var downloadID: String
    public var title: String
    public var artworkURL: String?
    public init(downloadID: String, title: String, artworkURL: String? = nil) {
        self.downloadID = downloadID
        self.title = title
        self.artworkURL = artworkURL
    }
}

/// A playback session with a renderer (a player page, a TV).
public struct NowPlayingAttributes: ActivityAttributes {
    public static let attributesType = "NowPlaying"
    public struct ContentState: Codable, Sendable, Hashable {
        public var position: Double
        public var duration: Double?
        public var rate: Double
        public var paused: Bool
        /// When `position` was read; a page moves it on at `rate` from here.
        public var positionDate: Date
        /// At the end of the item: what the session offers next ("Up next: S1 · E2").
        public var upNextTitle: String?
        /// When the offered item plays by itself (absent: it waits for the viewer).
        public var upNextDate: Date?
        public init(
            position: Double, duration: Double?, rate: Double, paused: Bool, positionDate: Date, upNextTitle: String? = nil,
            upNextDate: Date? = nil
        ) {
            self.position = position
            self.duration = duration
            self.rate = rate
            self.paused = paused
            self.positionDate = positionDate
            self.upNextTitle = upNextTitle
            self.upNextDate = upNextDate
        }
    }
    public var sessionID: String
    public var assetID: String
    public var title: String
    public var subtitle: String?
    public var artworkURL: String?
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
    public static let attributesType = "Ingest"
    public struct ContentState: Codable, Sendable, Hashable {
        public var count: Int
        public var currentTitle: String?
        public var percent: Int
        public init(count: Int, currentTitle: String?, percent: Int) {
            self.count = count
            self.currentTitle = currentTitle
            self.percent = percent
        }
    }
    public var library: String
    public init(library: String = "Marquee") { self.library = library }
}

/// A scheduled premiere: counts down to `startsAt`, then shows the asset as now playing.
public struct PremiereAttributes: ActivityAttributes {
    public static let attributesType = "Premiere"
    public struct ContentState: Codable, Sendable, Hashable {
        /// `countdown` before the start, `playing` after it.
        public var phase: String
        public var startsAt: Date
        public init(phase: String, startsAt: Date) {
            self.phase = phase
            self.startsAt = startsAt
        }
    }
    public var assetID: String
    public var title: String
    public var artworkURL: String?
    public var duration: Double?
    public init(assetID: String, title: String, artworkURL: String?, duration: Double?) {
        self.assetID = assetID
        self.title = title
        self.artworkURL = artworkURL
        self.duration = duration
    }
}
