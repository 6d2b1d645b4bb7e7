public import Foundation

/// A media playlist: the segments of one rendition, with the tags that govern them.
public struct MediaPlaylist: Sendable, Hashable {
    public var version: Int?
    /// EXT-X-TARGETDURATION; nil only when a lenient parse accepted a playlist without it
    /// (see `effectiveTargetDuration`).
    public var targetDuration: Int?
    public var mediaSequence: UInt64 = 0
    public var discontinuitySequence: UInt64 = 0
    public var playlistType: PlaylistType?
    public var iFramesOnly = false
    public var imagesOnly = false
    public var independentSegments = false
    public var endList = false
    public var start: StartPoint?
    public var definitions: [VariableDefinition] = []
    public var serverControl: ServerControl?
    public var partInformation: PartInformation?
    public var skip: Skip?
    public var segments: [MediaSegment] = []
    /// Parts of the segment still being produced (after the last complete segment).
    public var trailingParts: [PartialSegment] = []
    public var dateRanges: [DateRange] = []
    public var preloadHints: [PreloadHint] = []
    public var renditionReports: [RenditionReport] = []
    /// Unknown tags after the last segment (those before a segment belong to it).
    public var trailingUnknownTags: [UnknownTag] = []

    public init() {}

    /// Sum of the segment durations, in seconds.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// The declared target duration, or the rounded-up longest segment when it is missing.
    public var effectiveTargetDuration: Int {
        targetDuration ?? Int(exactly: min((segments.map(\.duration).max() ?? 0).rounded(.up), 1e15)) ?? 0
    }

    /// Start time of each segment on the playlist timeline (seconds from the first segment).
    public var segmentStartTimes: [Double] {
        var t = 0.0
        return segments.map { s in
            defer { t += s.duration }
            return t
        }
    }

    /// The encryption methods the segments use, each once, in order of first use.
    public var encryptionMethods: [EncryptionMethod] {
        var seen: [EncryptionMethod] = []
        for s in segments { for k in s.keys where !seen.contains(k.method) { seen.append(k.method) } }
        return seen
    }

    /// Interstitial date ranges (`CLASS="com.apple.hls.interstitial"`).
    public var interstitials: [DateRange] { dateRanges.filter(\.isInterstitial) }

    /// Position of a date on the playlist timeline (seconds from the first segment), using
    /// the nearest preceding EXT-X-PROGRAM-DATE-TIME; nil when the playlist has none.
    public func playlistTime(of date: Date) -> Double? {
        let starts = segmentStartTimes
        var anchor: (Date, Double)?
        for (i, s) in segments.enumerated() {
            guard let pdt = s.programDateTime else { continue }
            if anchor == nil || pdt.date <= date { anchor = (pdt.date, starts[i]) }
            if pdt.date > date { break }
        }
        guard let (d, t) = anchor else { return nil }
        return t + date.timeIntervalSince(d)
    }
}

/// EXT-X-PLAYLIST-TYPE.
public enum PlaylistType: String, Sendable, Hashable, Codable { case vod = "VOD", event = "EVENT" }

/// One media segment and the tags that apply to it.
public struct MediaSegment: Sendable, Hashable {
    public var uri: String
    public var duration: Double
    public var title: String?
    public var byteRange: ByteRange?
    /// The start of `byteRange` after resolving an omitted offset; nil without a byte range.
    public var resolvedByteRangeOffset: UInt64?
    public var discontinuity = false
    /// The keys in effect for this segment (one per KEYFORMAT), empty when clear.
    public var keys: [EncryptionKey] = []
    public var map: MediaInitializationSection?
    public var programDateTime: PlaylistDate?
    public var gap = false
    /// EXT-X-BITRATE in effect, kilobits per second.
    public var bitrate: Int?
    public var tiles: Tiles?
    public var parts: [PartialSegment] = []
    public var unknownTags: [UnknownTag] = []

    public init(uri: String, duration: Double) {
        self.uri = uri
        self.duration = duration
    }

    /// The segment is encrypted with the whole-segment AES-128 method.
    public var isAES128: Bool { keys.contains { $0.method == .aes128 } }
}

/// EXT-X-PART: a partial segment (low-latency HLS).
public struct PartialSegment: Sendable, Hashable {
    public var uri: String
    public var duration: Double
    public var independent = false
    public var byteRange: ByteRange?
    public var gap = false
    public var otherAttributes: [Attribute] = []
    public init(uri: String, duration: Double) {
        self.uri = uri
        self.duration = duration
    }
}

/// EXT-X-PART-INF.
public struct PartInformation: Sendable, Hashable {
    public var partTarget: Double
    public init(partTarget: Double) { self.partTarget = partTarget }
}

/// EXT-X-SERVER-CONTROL: what the server supports for low-latency delivery.
public struct ServerControl: Sendable, Hashable {
    public var canSkipUntil: Double?
    public var canSkipDateRanges = false
    public var holdBack: Double?
    public var partHoldBack: Double?
    public var canBlockReload = false
    public var otherAttributes: [Attribute] = []
    public init() {}
}

/// EXT-X-SKIP: segments left out of a delta update.
public struct Skip: Sendable, Hashable {
    public var skippedSegments: UInt64
    public var recentlyRemovedDateRanges: [String] = []
    public init(skippedSegments: UInt64) { self.skippedSegments = skippedSegments }
}

/// EXT-X-PRELOAD-HINT.
public struct PreloadHint: Sendable, Hashable {
    public var type: String
    public var uri: String
    public var byteRangeStart: UInt64?
    public var byteRangeLength: UInt64?
    public init(type: String, uri: String) {
        self.type = type
        self.uri = uri
    }
}

/// EXT-X-RENDITION-REPORT.
public struct RenditionReport: Sendable, Hashable {
    public var uri: String
    public var lastMediaSequence: UInt64?
    public var lastPart: UInt64?
    public init(uri: String) { self.uri = uri }
}
