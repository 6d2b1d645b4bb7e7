/// A multivariant ("master") playlist: the variants a player chooses among, the renditions
/// they reference, trick-play variants, and playlist-wide data.
public struct MultivariantPlaylist: Sendable, Hashable {
    /// `EXT-X-VERSION`: the protocol compatibility version; nil when the playlist has no such tag.
    public var version: Int?
    /// `EXT-X-INDEPENDENT-SEGMENTS`: every segment of every variant decodes without the segments before it.
    public var independentSegments = false
    /// `EXT-X-START`: where playback should begin, when the playlist says.
    public var start: StartPoint?
    /// `EXT-X-DEFINE` variables, in playlist order.
    public var definitions: [VariableDefinition] = []
    /// `EXT-X-MEDIA` renditions (alternative audio, video, subtitles, captions), in playlist order.
    public var renditions: [Rendition] = []
    /// `EXT-X-STREAM-INF` variants, in playlist order.
    public var variants: [VariantStream] = []
    /// `EXT-X-I-FRAME-STREAM-INF` variants (I-frame playlists for trick play), in playlist order.
    public var iFrameVariants: [IFrameVariantStream] = []
    /// `EXT-X-IMAGE-STREAM-INF` variants (thumbnail image playlists), in playlist order.
    public var imageVariants: [ImageVariantStream] = []
    /// `EXT-X-SESSION-DATA` entries, in playlist order.
    public var sessionData: [SessionData] = []
    /// `EXT-X-SESSION-KEY` keys a player may load before it picks a variant.
    public var sessionKeys: [EncryptionKey] = []
    /// `EXT-X-CONTENT-STEERING`, when present.
    public var contentSteering: ContentSteering?
    /// Tags the parser does not model, kept so that writing the playlist back loses nothing.
    public var unknownTags: [UnknownTag] = []

    /// An empty playlist, to fill in before writing it.
    public init() {}

    /// The renditions of a group, in playlist order.
    public func renditions(ofType type: MediaType, group: String) -> [Rendition] {
        renditions.filter { $0.type == type && $0.groupID == group }
    }
}

/// Kind of an `EXT-X-MEDIA` rendition.
public enum MediaType: String, Sendable, Hashable, Codable {
    case audio = "AUDIO", video = "VIDEO", subtitles = "SUBTITLES", closedCaptions = "CLOSED-CAPTIONS"
}

/// `EXT-X-MEDIA`: one alternative rendition (an audio language, a camera angle, subtitles).
public struct Rendition: Sendable, Hashable {
    /// `TYPE`: audio, video, subtitles or closed captions.
    public var type: MediaType
    /// `GROUP-ID`: the group that variants name in their `AUDIO`, `VIDEO`, `SUBTITLES` or `CLOSED-CAPTIONS` attribute.
    public var groupID: String
    /// `NAME`: the label a player shows for this rendition.
    public var name: String
    /// `URI`: its media playlist, as written (unresolved); nil when the rendition is carried in the variant's own segments.
    public var uri: String?
    /// `LANGUAGE`: the primary language, as an RFC 5646 tag (`en`, `pt-BR`).
    public var language: String?
    /// `ASSOC-LANGUAGE`: a language tied to `language` (another script or a spoken variant).
    public var associatedLanguage: String?
    /// `STABLE-RENDITION-ID`: an identifier that stays the same across reloads and pathways.
    public var stableRenditionID: String?
    /// `DEFAULT=YES`: the player plays this one when the person has expressed no preference.
    public var isDefault = false
    /// `AUTOSELECT=YES`: the player may choose it by itself, from the system's language settings.
    public var autoselect = false
    /// `FORCED=YES` (subtitles): shown even when subtitles are off, for dialogue in another language.
    public var forced = false
    /// `INSTREAM-ID` (closed captions): the channel in the video stream, such as `CC1` or `SERVICE3`.
    public var instreamID: String?
    /// `BIT-DEPTH` (audio): bits per sample.
    public var bitDepth: Int?
    /// `SAMPLE-RATE` (audio): samples per second, in hertz.
    public var sampleRate: Int?
    /// `CHARACTERISTICS`: uniform type identifiers of accessibility traits, such as `public.accessibility.describes-video`.
    public var characteristics: [String] = []
    /// `CHANNELS` (audio): channel count, coding and special usages.
    public var channels: ChannelsDescription?
    /// Attributes the parser does not model, kept in order for writing.
    public var otherAttributes: [Attribute] = []

    /// A rendition with the three attributes every `EXT-X-MEDIA` must have.
    public init(type: MediaType, groupID: String, name: String) {
        self.type = type
        self.groupID = groupID
        self.name = name
    }
}

/// The `CHANNELS` attribute of an audio rendition: channel count, audio coding identifiers
/// (`JOC` for Dolby Atmos joint object coding, `nOA` for ambisonics of order n) and special
/// usages (`BINAURAL`, `IMMERSIVE`, `DOWNMIX`).
public struct ChannelsDescription: Sendable, Hashable {
    public var count: Int
    public var codingIdentifiers: [String]
    public var specialUsages: [String]

    /// A description of `count` channels with the given coding identifiers and usages.
    public init(count: Int, codingIdentifiers: [String] = [], specialUsages: [String] = []) {
        self.count = count
        self.codingIdentifiers = codingIdentifiers
        self.specialUsages = specialUsages
    }

    /// Parses `count[/coding[,coding]][/usage[,usage]]`; nil when the count is not a number.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard let first = parts.first, let count = Int(first.trimmingWhitespace()) else { return nil }
        func list(_ i: Int) -> [String] {
            guard parts.count > i else { return [] }
            return parts[i].split(separator: ",").map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty && $0 != "-" }
        }
        self.init(count: count, codingIdentifiers: list(1), specialUsages: list(2))
    }

    /// The attribute's text: the count, then the coding identifiers (`-` when only usages follow) and usages.
    public var text: String {
        var s = "\(count)"
        if !codingIdentifiers.isEmpty || !specialUsages.isEmpty {
            s += "/" + (codingIdentifiers.isEmpty ? "-" : codingIdentifiers.joined(separator: ","))
        }
        if !specialUsages.isEmpty { s += "/" + specialUsages.joined(separator: ",") }
        return s
    }

    /// Whether the audio is Dolby Atmos carried as joint object coding (`JOC`).
    public var isJointObjectCoding: Bool { codingIdentifiers.contains("JOC") }
    /// The ambisonics order when the coding is `nOA`.
    public var ambisonicsOrder: Int? {
        for c in codingIdentifiers where c.hasSuffix("OA") { if let n = Int(c.dropLast(2)) { return n } }
        return nil
    }
    /// Whether the audio is meant for headphones (`BINAURAL`).
    public var isBinaural: Bool { specialUsages.contains("BINAURAL") }
    /// Whether the audio is immersive: marked `IMMERSIVE`, or coded as Atmos (`JOC`) or ambisonics.
    public var isImmersive: Bool { specialUsages.contains("IMMERSIVE") || isJointObjectCoding || ambisonicsOrder != nil }
    /// Whether the audio was mixed down from more channels (`DOWNMIX`).
    public var isDownmix: Bool { specialUsages.contains("DOWNMIX") }
}

/// Attributes that `EXT-X-STREAM-INF`, `EXT-X-I-FRAME-STREAM-INF` and
/// `EXT-X-IMAGE-STREAM-INF` share.
public struct StreamAttributes: Sendable, Hashable {
    /// BANDWIDTH; nil only when a lenient parse accepted a variant without it.
    public var bandwidth: Int?
    /// `AVERAGE-BANDWIDTH`: the average segment bit rate, in bits per second.
    public var averageBandwidth: Int?
    /// `SCORE`: the author's preference among variants; higher is better.
    public var score: Double?
    /// `CODECS`: RFC 6381 codec strings (`avc1.640028`, `mp4a.40.2`), one per format in the variant.
    public var codecs: [String] = []
    /// `SUPPLEMENTAL-CODECS`: codec strings a capable player may use instead (such as Dolby Vision over HEVC).
    public var supplementalCodecs: [String] = []
    /// `RESOLUTION`: the largest frame, in pixels.
    public var resolution: Resolution?
    /// `HDCP-LEVEL`: `TYPE-0`, `TYPE-1` or `NONE`, the output protection the content needs.
    public var hdcpLevel: String?
    /// `ALLOWED-CPC`: the content protection configurations allowed per key format, as written.
    public var allowedCPC: String?
    /// `VIDEO-RANGE`: SDR, HLG or PQ.
    public var videoRange: VideoRange?
    /// `REQ-VIDEO-LAYOUT`: the video layout a player must support (such as `CH-STEREO` for stereo video), as written.
    public var requiredVideoLayout: String?
    /// `STABLE-VARIANT-ID`: an identifier that stays the same across reloads and pathways.
    public var stableVariantID: String?
    /// `VIDEO`: the group ID of the video renditions this variant uses.
    public var video: String?
    /// `PATHWAY-ID`: the content-steering pathway the variant belongs to.
    public var pathwayID: String?
    /// `PROGRAM-ID`: a legacy attribute removed from the specification, kept when a playlist has it.
    public var programID: Int?
    /// Attributes the parser does not model, kept in order for writing.
    public var otherAttributes: [Attribute] = []
    /// Attributes with nothing set.
    public init() {}
}

/// `VIDEO-RANGE`: the transfer characteristics of the video.
public enum VideoRange: String, Sendable, Hashable, Codable {
    case sdr = "SDR", hlg = "HLG", pq = "PQ"
}

/// `EXT-X-STREAM-INF` and the URI after it: one variant stream.
public struct VariantStream: Sendable, Hashable {
    /// The URI line after the tag: the variant's media playlist, as written (unresolved).
    public var uri: String
    /// The attributes variants of every kind share.
    public var attributes: StreamAttributes
    /// `FRAME-RATE`: the maximum frame rate, in frames per second.
    public var frameRate: Double?
    /// `AUDIO`: the group ID of the audio renditions this variant plays with.
    public var audio: String?
    /// `SUBTITLES`: the group ID of the subtitle renditions this variant offers.
    public var subtitles: String?
    /// CLOSED-CAPTIONS: a group ID, or nil; `closedCaptionsNone` marks an explicit NONE.
    public var closedCaptions: String?
    public var closedCaptionsNone = false

    /// A variant whose media playlist is at `uri`.
    public init(uri: String, attributes: StreamAttributes = StreamAttributes()) {
        self.uri = uri
        self.attributes = attributes
    }
}

/// `EXT-X-I-FRAME-STREAM-INF`: a playlist of I-frames for fast seeking and scrubbing.
public struct IFrameVariantStream: Sendable, Hashable {
    /// `URI`: the I-frame playlist, as written (unresolved).
    public var uri: String
    /// The attributes variants of every kind share.
    public var attributes: StreamAttributes
    /// An I-frame variant whose playlist is at `uri`.
    public init(uri: String, attributes: StreamAttributes) {
        self.uri = uri
        self.attributes = attributes
    }
}

/// `EXT-X-IMAGE-STREAM-INF`: a playlist of thumbnail images (Roku / Apple image playlists).
public struct ImageVariantStream: Sendable, Hashable {
    /// `URI`: the image playlist, as written (unresolved).
    public var uri: String
    /// The attributes variants of every kind share.
    public var attributes: StreamAttributes
    /// An image variant whose playlist is at `uri`.
    public init(uri: String, attributes: StreamAttributes) {
        self.uri = uri
        self.attributes = attributes
    }
}

/// `EXT-X-SESSION-DATA`: a playlist-wide value (title, chapters, …) inline or at a URI.
public struct SessionData: Sendable, Hashable {
    /// `DATA-ID`: what the value is, in reverse-DNS form (`com.apple.hls.title`).
    public var dataID: String
    /// `VALUE`: the data inline; a playlist has this or `uri`, not both.
    public var value: String?
    /// `URI`: where the data is (JSON unless `format` says `RAW`), as written.
    public var uri: String?
    /// `FORMAT`: `JSON` or `RAW`, the format of what `uri` points to.
    public var format: String?
    /// `LANGUAGE`: the language of `value`, as an RFC 5646 tag.
    public var language: String?
    /// Attributes the parser does not model, kept in order for writing.
    public var otherAttributes: [Attribute] = []
    /// Session data with `dataID` and either an inline `value` or a `uri`.
    public init(dataID: String, value: String? = nil, uri: String? = nil, language: String? = nil) {
        self.dataID = dataID
        self.value = value
        self.uri = uri
        self.language = language
    }
}

/// `EXT-X-CONTENT-STEERING`: where the steering manifest is and the initial pathway.
public struct ContentSteering: Sendable, Hashable {
    /// `SERVER-URI`: the steering manifest, as written.
    public var serverURI: String
    /// `PATHWAY-ID`: the pathway to use until the steering manifest says otherwise.
    public var pathwayID: String?
    /// Attributes the parser does not model, kept in order for writing.
    public var otherAttributes: [Attribute] = []
    /// Steering from the manifest at `serverURI`, starting on `pathwayID`.
    public init(serverURI: String, pathwayID: String? = nil) {
        self.serverURI = serverURI
        self.pathwayID = pathwayID
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}
