/// A multivariant ("master") playlist: the variants a player chooses among, the renditions
/// they reference, trick-play variants, and playlist-wide data.
public struct MultivariantPlaylist: Sendable, Hashable {
    public var version: Int?
    public var independentSegments = false
    public var start: StartPoint?
    public var definitions: [VariableDefinition] = []
    public var renditions: [Rendition] = []
    public var variants: [VariantStream] = []
    public var iFrameVariants: [IFrameVariantStream] = []
    public var imageVariants: [ImageVariantStream] = []
    public var sessionData: [SessionData] = []
    public var sessionKeys: [EncryptionKey] = []
    public var contentSteering: ContentSteering?
    public var unknownTags: [UnknownTag] = []

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
    public var type: MediaType
    public var groupID: String
    public var name: String
    public var uri: String?
    public var language: String?
    public var associatedLanguage: String?
    public var stableRenditionID: String?
    public var isDefault = false
    public var autoselect = false
    public var forced = false
    public var instreamID: String?
    public var bitDepth: Int?
    public var sampleRate: Int?
    public var characteristics: [String] = []
    public var channels: ChannelsDescription?
    public var otherAttributes: [Attribute] = []

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

    public var text: String {
        var s = "\(count)"
        if !codingIdentifiers.isEmpty || !specialUsages.isEmpty {
            s += "/" + (codingIdentifiers.isEmpty ? "-" : codingIdentifiers.joined(separator: ","))
        }
        if !specialUsages.isEmpty { s += "/" + specialUsages.joined(separator: ",") }
        return s
    }

    public var isJointObjectCoding: Bool { codingIdentifiers.contains("JOC") }
    /// The ambisonics order when the coding is `nOA`.
    public var ambisonicsOrder: Int? {
        for c in codingIdentifiers where c.hasSuffix("OA") { if let n = Int(c.dropLast(2)) { return n } }
        return nil
    }
    public var isBinaural: Bool { specialUsages.contains("BINAURAL") }
    public var isImmersive: Bool { specialUsages.contains("IMMERSIVE") || isJointObjectCoding || ambisonicsOrder != nil }
    public var isDownmix: Bool { specialUsages.contains("DOWNMIX") }
}

/// Attributes that `EXT-X-STREAM-INF`, `EXT-X-I-FRAME-STREAM-INF` and
/// `EXT-X-IMAGE-STREAM-INF` share.
public struct StreamAttributes: Sendable, Hashable {
    /// BANDWIDTH; nil only when a lenient parse accepted a variant without it.
    public var bandwidth: Int?
    public var averageBandwidth: Int?
    public var score: Double?
    public var codecs: [String] = []
    public var supplementalCodecs: [String] = []
    public var resolution: Resolution?
    public var hdcpLevel: String?
    public var allowedCPC: String?
    public var videoRange: VideoRange?
    public var requiredVideoLayout: String?
    public var stableVariantID: String?
    public var video: String?
    public var pathwayID: String?
    public var programID: Int?
    public var otherAttributes: [Attribute] = []
    public init() {}
}

/// `VIDEO-RANGE`: the transfer characteristics of the video.
public enum VideoRange: String, Sendable, Hashable, Codable {
    case sdr = "SDR", hlg = "HLG", pq = "PQ"
}

/// `EXT-X-STREAM-INF` and the URI after it: one variant stream.
public struct VariantStream: Sendable, Hashable {
    public var uri: String
    public var attributes: StreamAttributes
    public var frameRate: Double?
    public var audio: String?
    public var subtitles: String?
    /// CLOSED-CAPTIONS: a group ID, or nil; `closedCaptionsNone` marks an explicit NONE.
    public var closedCaptions: String?
    public var closedCaptionsNone = false

    public init(uri: String, attributes: StreamAttributes = StreamAttributes()) {
        self.uri = uri
        self.attributes = attributes
    }
}

/// `EXT-X-I-FRAME-STREAM-INF`: a playlist of I-frames for fast seeking and scrubbing.
public struct IFrameVariantStream: Sendable, Hashable {
    public var uri: String
    public var attributes: StreamAttributes
    public init(uri: String, attributes: StreamAttributes) {
        self.uri = uri
        self.attributes = attributes
    }
}

/// `EXT-X-IMAGE-STREAM-INF`: a playlist of thumbnail images (Roku / Apple image playlists).
public struct ImageVariantStream: Sendable, Hashable {
    public var uri: String
    public var attributes: StreamAttributes
    public init(uri: String, attributes: StreamAttributes) {
        self.uri = uri
        self.attributes = attributes
    }
}

/// `EXT-X-SESSION-DATA`: a playlist-wide value (title, chapters, …) inline or at a URI.
public struct SessionData: Sendable, Hashable {
    public var dataID: String
    public var value: String?
    public var uri: String?
    public var format: String?
    public var language: String?
    public var otherAttributes: [Attribute] = []
    public init(dataID: String, value: String? = nil, uri: String? = nil, language: String? = nil) {
        self.dataID = dataID
        self.value = value
        self.uri = uri
        self.language = language
    }
}

/// `EXT-X-CONTENT-STEERING`: where the steering manifest is and the initial pathway.
public struct ContentSteering: Sendable, Hashable {
    public var serverURI: String
    public var pathwayID: String?
    public var otherAttributes: [Attribute] = []
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
