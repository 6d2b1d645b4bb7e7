public import Foundation

/// One variant of a multivariant playlist as a player sees it — modelled on `AVAssetVariant`:
/// bit rates, video attributes, and audio attributes per audio rendition the variant can
/// play (a variant whose group offers stereo and Atmos has both).
public struct Variant: Sendable, Hashable {
    /// The variant's URI, resolved against the playlist URL when one is known.
    public var uri: String
    /// The `EXT-X-STREAM-INF` it was inspected from, unchanged (its URI unresolved).
    public var stream: VariantStream
    /// BANDWIDTH in bits per second; nil only for a leniently accepted variant without it.
    public var peakBitRate: Int?
    /// AVERAGE-BANDWIDTH, nil when undeclared.
    public var averageBitRate: Int?
    /// `SCORE`: the author's preference among variants; higher is better.
    public var score: Double?
    /// The `CODECS` entries, decoded (`SUPPLEMENTAL-CODECS` not included).
    public var codecs: [CodecDescription]
    /// The variant's video, when `CODECS` names a video codec or a video attribute (resolution, frame rate,
    /// range, HDCP level, layout) is present; nil for audio only.
    public var videoAttributes: VideoAttributes?
    /// The variant's audio, when `CODECS` names an audio codec or its `AUDIO` group has renditions.
    public var audioAttributes: AudioAttributes?
    /// The renditions of its `SUBTITLES` group.
    public var subtitleRenditions: [TextRendition]
    /// The renditions of its `CLOSED-CAPTIONS` group.
    public var closedCaptionRenditions: [TextRendition]
    /// The catalogue badges this variant earns (4K, HDR, Dolby Atmos, …), in `Badge` order.
    public var badges: [Badge]

    /// Video properties of a variant.
    public struct VideoAttributes: Sendable, Hashable {
        /// `RESOLUTION`, in pixels.
        public var presentationSize: Resolution?
        /// Sample entry codes of the video codecs, SUPPLEMENTAL-CODECS included (`hvc1`, `dvh1`).
        public var codecTypes: [String]
        /// `VIDEO-RANGE`, or when absent the transfer function the codec strings imply (PQ, HLG), else SDR.
        public var videoRange: VideoRange
        /// `FRAME-RATE`, in frames per second.
        public var nominalFrameRate: Double?
        /// `REQ-VIDEO-LAYOUT`, as written.
        public var videoLayout: String?
        /// `HDCP-LEVEL`, as written.
        public var hdcpLevel: String?
        /// The largest bit depth the video codec strings declare.
        public var bitDepth: Int?
    }

    /// Audio properties: the formats in CODECS, and one entry per audio rendition.
    public struct AudioAttributes: Sendable, Hashable {
        /// Sample entry codes of the audio codecs in `CODECS` (`mp4a`, `ec-3`), each once.
        public var formatIDs: [String]
        /// One entry per rendition of the `AUDIO` group, in playlist order.
        public var renditions: [AudioRendition]
    }

    /// One audio rendition the variant can play. A variant without an AUDIO group has one
    /// muxed rendition with `groupID` nil.
    public struct AudioRendition: Sendable, Hashable {
        /// `GROUP-ID`; nil for audio muxed into the variant.
        public var groupID: String?
        /// `NAME`.
        public var name: String?
        /// `LANGUAGE`, an RFC 5646 tag.
        public var language: String?
        /// Its media playlist, resolved; nil when the audio is in the variant's segments.
        public var uri: String?
        /// The channel count from `CHANNELS`.
        public var channelCount: Int?
        /// Whether `CHANNELS` marks it immersive (or codes it as Atmos or ambisonics).
        public var isImmersive: Bool
        /// Whether `CHANNELS` marks it `BINAURAL`.
        public var isBinaural: Bool
        /// Whether `CHANNELS` marks it `DOWNMIX`.
        public var isDownmix: Bool
        /// `SAMPLE-RATE`, in hertz.
        public var sampleRate: Int?
        /// `DEFAULT=YES` (always true for muxed audio).
        public var isDefault: Bool
        /// `CHARACTERISTICS`: accessibility traits as uniform type identifiers.
        public var characteristics: [String]
    }

    /// A subtitle or closed-caption rendition.
    public struct TextRendition: Sendable, Hashable {
        /// `GROUP-ID`.
        public var groupID: String
        /// `NAME`.
        public var name: String
        /// `LANGUAGE`, an RFC 5646 tag.
        public var language: String?
        /// Its media playlist, resolved; nil for closed captions (carried in the video).
        public var uri: String?
        /// `FORCED=YES`: shown even when subtitles are off.
        public var forced: Bool
        /// `DEFAULT=YES`.
        public var isDefault: Bool
        /// `CHARACTERISTICS`: accessibility traits as uniform type identifiers.
        public var characteristics: [String]
        /// `INSTREAM-ID` of closed captions (`CC1`).
        public var instreamID: String?
    }

    /// Inspects one variant of `playlist`; `baseURL` is the playlist's final URL.
    public init(_ stream: VariantStream, in playlist: MultivariantPlaylist, baseURL: URL? = nil) {
        self.stream = stream
        uri = URIResolution.resolve(stream.uri, against: baseURL)
        let a = stream.attributes
        peakBitRate = a.bandwidth
        averageBitRate = a.averageBandwidth
        score = a.score
        codecs = a.codecs.map(CodecDescription.init)
        let supplemental = a.supplementalCodecs.map(CodecDescription.init)
        let video = (codecs + supplemental).filter { $0.kind == .video }
        let audioCodecs = codecs.filter { $0.kind == .audio }

        // RESOLUTION, FRAME-RATE, VIDEO-RANGE, HDCP-LEVEL and REQ-VIDEO-LAYOUT describe the
        // variant's video whatever CODECS says (or when CODECS is missing altogether).
        let describesVideo =
            a.resolution != nil || a.videoRange != nil || stream.frameRate != nil
            || a.hdcpLevel != nil || a.requiredVideoLayout != nil
        if !video.isEmpty || describesVideo {
            let transfers = video.compactMap(\.transfer)
            let range = a.videoRange ?? (transfers.contains(.pq) ? .pq : transfers.contains(.hlg) ? .hlg : .sdr)
            videoAttributes = VideoAttributes(
                presentationSize: a.resolution, codecTypes: Self.unique(video.map(\.fourCC)), videoRange: range,
                nominalFrameRate: stream.frameRate, videoLayout: a.requiredVideoLayout, hdcpLevel: a.hdcpLevel,
                bitDepth: video.compactMap(\.bitDepth).max())
        }

        var audio: [AudioRendition] = []
        if let group = stream.audio {
            audio = playlist.renditions(ofType: .audio, group: group).map { r in
                AudioRendition(
                    groupID: group, name: r.name, language: r.language,
                    uri: r.uri.map { URIResolution.resolve($0, against: baseURL) },
                    channelCount: r.channels?.count, isImmersive: r.channels?.isImmersive ?? false,
                    isBinaural: r.channels?.isBinaural ?? false, isDownmix: r.channels?.isDownmix ?? false,
                    sampleRate: r.sampleRate, isDefault: r.isDefault, characteristics: r.characteristics)
            }
        }
        if audio.isEmpty, !audioCodecs.isEmpty {
            audio = [
                AudioRendition(
                    groupID: stream.audio, name: nil, language: nil, uri: nil, channelCount: nil, isImmersive: false,
                    isBinaural: false, isDownmix: false, sampleRate: nil, isDefault: true, characteristics: [])
            ]
        }
        audioAttributes =
            audio.isEmpty && audioCodecs.isEmpty
            ? nil
            : AudioAttributes(formatIDs: Self.unique(audioCodecs.map(\.fourCC)), renditions: audio)

        func text(_ type: MediaType, _ group: String?) -> [TextRendition] {
            guard let group else { return [] }
            return playlist.renditions(ofType: type, group: group).map {
                TextRendition(
                    groupID: group, name: $0.name, language: $0.language,
                    uri: $0.uri.map { URIResolution.resolve($0, against: baseURL) }, forced: $0.forced,
                    isDefault: $0.isDefault, characteristics: $0.characteristics, instreamID: $0.instreamID)
            }
        }
        subtitleRenditions = text(.subtitles, stream.subtitles)
        closedCaptionRenditions = text(.closedCaptions, stream.closedCaptions)
        badges = []
        badges = Badge.badges(for: self)
    }

    static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}

extension MultivariantPlaylist {
    /// Every variant, inspected; `baseURL` resolves relative URIs.
    public func inspectedVariants(baseURL: URL? = nil) -> [Variant] {
        variants.map { Variant($0, in: self, baseURL: baseURL) }
    }

    /// The badges of all variants together, in catalogue order.
    public func badges(baseURL: URL? = nil) -> [Badge] {
        let all = Set(inspectedVariants(baseURL: baseURL).flatMap(\.badges))
        return Badge.allCases.filter(all.contains)
    }
}

/// The badges a catalogue shows for a title.
///
/// HD: 720 lines (or 1280 pixels across) and more; 4K: 2160 lines (or 3840 across). HDR: a
/// range other than SDR. Dolby Atmos: an immersive rendition in E-AC-3 or AC-4 (or of 12 or
/// more channels). 5.1 and 7.1: a rendition of 6 or 8 channels. The raw value is the label.
public enum Badge: String, Sendable, Hashable, Codable, CaseIterable {
    case fourK = "4K", hd = "HD", hdr = "HDR", dolbyVision = "Dolby Vision", dolbyAtmos = "Dolby Atmos"
    case lossless = "Lossless", surround51 = "5.1", surround71 = "7.1"

    static func badges(for v: Variant) -> [Badge] {
        var set = Set<Badge>()
        if let size = v.videoAttributes?.presentationSize {
            if size.height >= 2160 || size.width >= 3840 { set.insert(.fourK) } else if size.height >= 720 || size.width >= 1280 { set.insert(.hd) }
        }
        if let range = v.videoAttributes?.videoRange, range != .sdr { set.insert(.hdr) }
        let allCodecs = v.codecs + v.stream.attributes.supplementalCodecs.map(CodecDescription.init)
        if allCodecs.contains(where: \.isDolbyVision) { set.insert(.dolbyVision) }
        let renditions = v.audioAttributes?.renditions ?? []
        let atmosCapable = allCodecs.contains { $0.family == .eac3 || $0.family == .ac4 }
        if renditions.contains(where: { $0.isImmersive }) && (atmosCapable || renditions.contains { $0.channelCount ?? 0 >= 12 }) {
            set.insert(.dolbyAtmos)
        }
        if allCodecs.contains(where: \.isLossless) { set.insert(.lossless) }
        if renditions.contains(where: { $0.channelCount == 6 }) { set.insert(.surround51) }
        if renditions.contains(where: { $0.channelCount == 8 }) { set.insert(.surround71) }
        return allCases.filter(set.contains)
    }
}

/// Resolving playlist URIs against the playlist's final URL (after redirects).
public enum URIResolution {
    /// The absolute form of `uri`, or `uri` unchanged when there is no base or it is absolute.
    public static func resolve(_ uri: String, against base: URL?) -> String {
        guard let base else { return uri }
        if let url = URL(string: uri, relativeTo: base) { return url.absoluteString }
        if let escaped = uri.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed),
            let url = URL(string: escaped, relativeTo: base)
        {
            return url.absoluteString
        }
        return uri
    }
}
