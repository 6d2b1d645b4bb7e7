public import Foundation

/// A media playlist: the segments of one rendition, with the tags that govern them.
public struct MediaPlaylist: Sendable, Hashable {
    /// `EXT-X-VERSION`: the protocol compatibility version; nil when the playlist has no such tag.
    public var version: Int?
    /// EXT-X-TARGETDURATION; nil only when a lenient parse accepted a playlist without it
    /// (see `effectiveTargetDuration`).
    public var targetDuration: Int?
    /// `EXT-X-MEDIA-SEQUENCE`: the sequence number of the first segment (0 when absent).
    public var mediaSequence: UInt64 = 0
    /// `EXT-X-DISCONTINUITY-SEQUENCE`: the discontinuity number of the first segment (0 when absent).
    public var discontinuitySequence: UInt64 = 0
    /// `EXT-X-PLAYLIST-TYPE`: VOD (never changes) or EVENT (only grows); nil for a live sliding window.
    public var playlistType: PlaylistType?
    /// `EXT-X-I-FRAMES-ONLY`: each segment is one I-frame (trick play); segment durations are the time to the next I-frame.
    public var iFramesOnly = false
    /// `EXT-X-IMAGES-ONLY`: the segments are images (thumbnails, possibly tiled), not media.
    public var imagesOnly = false
    /// `EXT-X-INDEPENDENT-SEGMENTS`: every segment decodes without the segments before it.
    public var independentSegments = false
    /// `EXT-X-ENDLIST`: no segments will be added; a live playlist without it may still grow.
    public var endList = false
    /// `EXT-X-START`: where playback should begin, when the playlist says.
    public var start: StartPoint?
    /// `EXT-X-DEFINE` variables, in playlist order.
    public var definitions: [VariableDefinition] = []
    /// `EXT-X-SERVER-CONTROL`: the low-latency delivery features the server supports.
    public var serverControl: ServerControl?
    /// `EXT-X-PART-INF`: the part target duration, present when the playlist has partial segments.
    public var partInformation: PartInformation?
    /// `EXT-X-SKIP`: set in a delta update, where the first segments were left out.
    public var skip: Skip?
    /// The complete segments, in playlist order.
    public var segments: [MediaSegment] = []
    /// Parts of the segment still being produced (after the last complete segment).
    public var trailingParts: [PartialSegment] = []
    /// `EXT-X-DATERANGE` tags (interstitials, ad markers, chapters), in playlist order.
    public var dateRanges: [DateRange] = []
    /// `EXT-X-PRELOAD-HINT` tags: resources the server is about to publish, for a player to request early.
    public var preloadHints: [PreloadHint] = []
    /// `EXT-X-RENDITION-REPORT` tags: the latest segment and part of other renditions, for switching quickly.
    public var renditionReports: [RenditionReport] = []
    /// Unknown tags after the last segment (those before a segment belong to it).
    public var trailingUnknownTags: [UnknownTag] = []

    /// An empty playlist, to fill in before writing it.
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
    /// The URI line: the segment's resource, as written (unresolved).
    public var uri: String
    /// The `EXTINF` duration, in seconds.
    public var duration: Double
    /// The `EXTINF` title after the comma, when there is one.
    public var title: String?
    /// `EXT-X-BYTERANGE`: the segment is this sub-range of the resource at `uri`.
    public var byteRange: ByteRange?
    /// The start of `byteRange` after resolving an omitted offset; nil without a byte range.
    public var resolvedByteRangeOffset: UInt64?
    /// `EXT-X-DISCONTINUITY` before this segment: its encoding or timestamps do not follow from the segment before.
    public var discontinuity = false
    /// The keys in effect for this segment (one per KEYFORMAT), empty when clear.
    public var keys: [EncryptionKey] = []
    /// The `EXT-X-MAP` in effect: the initialization section (for fMP4, `ftyp` and `moov`) a player needs to decode it.
    public var map: MediaInitializationSection?
    /// `EXT-X-PROGRAM-DATE-TIME` written just before this segment (not one extrapolated from earlier segments).
    public var programDateTime: PlaylistDate?
    /// `EXT-X-GAP`: the segment is missing; a player must not load it and may play silence or skip ahead.
    public var gap = false
    /// EXT-X-BITRATE in effect, kilobits per second.
    public var bitrate: Int?
    /// `EXT-X-TILES` (image playlists): how the image is cut into a grid of thumbnails.
    public var tiles: Tiles?
    /// The `EXT-X-PART` partial segments that make up this segment (low-latency HLS), in order.
    public var parts: [PartialSegment] = []
    /// Tags the parser does not model that came before this segment, kept for writing.
    public var unknownTags: [UnknownTag] = []

    /// A segment at `uri` lasting `duration` seconds, with no other tags.
    public init(uri: String, duration: Double) {
        self.uri = uri
        self.duration = duration
    }

    /// The segment is encrypted with the whole-segment AES-128 method.
    public var isAES128: Bool { keys.contains { $0.method == .aes128 } }
}

/// EXT-X-PART: a partial segment (low-latency HLS).
public struct PartialSegment: Sendable, Hashable {
    /// `URI`: the part's resource, as written (unresolved).
    public var uri: String
    /// `DURATION`, in seconds.
    public var duration: Double
    /// `INDEPENDENT=YES`: the part starts with an independent frame, so playback may begin there.
    public var independent = false
    /// `BYTERANGE`: the part is this sub-range of the resource at `uri`.
    public var byteRange: ByteRange?
    /// `GAP=YES`: the part is not available.
    public var gap = false
    /// Attributes the parser does not model, kept in order for writing.
    public var otherAttributes: [Attribute] = []
    /// A part at `uri` lasting `duration` seconds.
    public init(uri: String, duration: Double) {
        self.uri = uri
        self.duration = duration
    }
}

/// EXT-X-PART-INF.
public struct PartInformation: Sendable, Hashable {
    /// `PART-TARGET`: the longest a part may last, in seconds.
    public var partTarget: Double
    /// Part information with a `partTarget` in seconds.
    public init(partTarget: Double) { self.partTarget = partTarget }
}

/// EXT-X-SERVER-CONTROL: what the server supports for low-latency delivery.
public struct ServerControl: Sendable, Hashable {
    /// `CAN-SKIP-UNTIL`: the server can leave out segments older than this many seconds from the live edge (delta updates).
    public var canSkipUntil: Double?
    /// `CAN-SKIP-DATERANGES=YES`: a delta update may also leave out date ranges the player has seen.
    public var canSkipDateRanges = false
    /// `HOLD-BACK`: how far from the live edge, in seconds, a player should start.
    public var holdBack: Double?
    /// `PART-HOLD-BACK`: the same in low-latency mode, in seconds.
    public var partHoldBack: Double?
    /// `CAN-BLOCK-RELOAD=YES`: the server holds a playlist request until the asked-for segment or part exists.
    public var canBlockReload = false
    /// Attributes the parser does not model, kept in order for writing.
    public var otherAttributes: [Attribute] = []
    /// Server control with no feature set.
    public init() {}
}

/// EXT-X-SKIP: segments left out of a delta update.
public struct Skip: Sendable, Hashable {
    /// `SKIPPED-SEGMENTS`: how many segments at the start were left out.
    public var skippedSegments: UInt64
    /// `RECENTLY-REMOVED-DATERANGES`: the IDs of date ranges removed since the last full playlist.
    public var recentlyRemovedDateRanges: [String] = []
    /// A skip of `skippedSegments` segments.
    public init(skippedSegments: UInt64) { self.skippedSegments = skippedSegments }
}

/// EXT-X-PRELOAD-HINT.
public struct PreloadHint: Sendable, Hashable {
    /// `TYPE`: `PART` or `MAP`, what the hinted resource is.
    public var type: String
    /// `URI`: the hinted resource, as written (unresolved).
    public var uri: String
    /// `BYTERANGE-START`: where the hinted bytes begin in the resource, in bytes.
    public var byteRangeStart: UInt64?
    /// `BYTERANGE-LENGTH`: how many bytes are hinted; nil means to the end of the resource.
    public var byteRangeLength: UInt64?
    /// A hint of a `type` resource at `uri`.
    public init(type: String, uri: String) {
        self.type = type
        self.uri = uri
    }
}

/// EXT-X-RENDITION-REPORT.
public struct RenditionReport: Sendable, Hashable {
    /// `URI`: the other rendition's media playlist, as written (unresolved).
    public var uri: String
    /// `LAST-MSN`: the media sequence number of that rendition's last segment (with parts, the segment its last part is in).
    public var lastMediaSequence: UInt64?
    /// `LAST-PART`: the index of that rendition's last part within segment `lastMediaSequence`.
    public var lastPart: UInt64?
    /// A report on the rendition at `uri`.
    public init(uri: String) { self.uri = uri }
}
