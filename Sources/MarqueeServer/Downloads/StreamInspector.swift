import Downloads
import Foundation
import HLS
import Library
import NIOCore

/// A stream as the download page's variant picker shows it: each variant with its badges,
/// picture, bit rate, audio and subtitle renditions and the estimated download size
/// (bit rate × duration, the duration read from a media playlist).
public struct StreamInspection: Codable, Sendable, Hashable {
    /// An audio rendition (`EXT-X-MEDIA TYPE=AUDIO`) of the variant's audio group.
    public struct Audio: Codable, Sendable, Hashable {
        /// The rendition's `NAME`, as the playlist writes it.
        public var name: String?
        /// A BCP 47 tag (`LANGUAGE`); `nil` when the playlist gives none.
        public var language: String?
        /// The channel count from `CHANNELS` (2, 6…); `nil` when not declared.
        public var channels: Int?
        /// Whether the audio is immersive (spatial), which also earns the variant a "Spatial" badge.
        public var isImmersive: Bool
        /// `DEFAULT=YES`: what a player picks without a preference.
        public var isDefault: Bool
    }

    /// A subtitle rendition (`EXT-X-MEDIA TYPE=SUBTITLES`) of the variant's subtitle group.
    public struct Subtitles: Codable, Sendable, Hashable {
        /// The rendition's `NAME`.
        public var name: String
        /// A BCP 47 tag (`LANGUAGE`); `nil` when the playlist gives none.
        public var language: String?
        /// `FORCED=YES`: forced narrative subtitles (foreign dialogue only).
        public var forced: Bool
    }

    /// One variant (`EXT-X-STREAM-INF`) a person can pick, in the playlist's order.
    public struct Choice: Codable, Sendable, Hashable {
        /// The variant's URI (absolute); send it back as `variant` to download this one.
        public var uri: String
        /// The catalogue badges ("4K", "HDR"…) plus "Spatial" for stereoscopic video or immersive audio.
        public var badges: [String]
        /// The picture's width in pixels (`RESOLUTION`); `nil` when not declared.
        public var width: Int?
        /// The picture's height in pixels (`RESOLUTION`); `nil` when not declared.
        public var height: Int?
        /// Frames per second (`FRAME-RATE`); `nil` when not declared.
        public var frameRate: Double?
        /// `SDR`, `HLG` or `PQ`; `nil` without video attributes.
        public var videoRange: String?
        /// The `CODECS` entries (RFC 6381 strings such as `avc1.640028`, `mp4a.40.2`).
        public var codecs: [String]
        /// `BANDWIDTH`, in bits per second.
        public var peakBitRate: Int?
        /// `AVERAGE-BANDWIDTH`, in bits per second; `nil` when not declared.
        public var averageBitRate: Int?
        /// The renditions of the variant's audio group; empty when audio is muxed in or absent.
        public var audio: [Audio]
        /// The renditions of the variant's subtitle group; empty when it has none.
        public var subtitles: [Subtitles]
        /// Average (else peak) bit rate × `duration` ÷ 8, in bytes; `nil` when either is unknown.
        public var estimatedBytes: Int64?
    }

    /// The playlist's final URL (after redirects).
    public var url: String
    /// `multivariant`, or `media` when the URL named a single media playlist (one variant).
    public var kind: String
    /// A title to offer: the playlist's own, or one from the URL's path (see `suggestedTitle`).
    public var title: String
    /// Length in seconds, from a media playlist (the first variant's); `nil` when it could not be read.
    public var duration: Double?
    /// The variants to choose from, in the playlist's order; never empty.
    public var variants: [Choice]
    /// Every audio and subtitle language the stream offers, for the language choices.
    public var audioLanguages: [String]
    /// Every subtitle language the stream offers, without repeats, in the playlist's order.
    public var subtitleLanguages: [String]
}

/// Fetches and reads a stream for the download page: a multivariant playlist (or a single
/// media playlist standing for one variant) and one media playlist for the duration. Live
/// streams and playlists with errors are refused with a sentence saying so.
public struct StreamInspector: Sendable {
    /// An inspector; each `inspect(_:)` call makes and shuts down its own HTTP client.
    public init() {}

    /// Fetches the playlist at `text` (a pasted http(s) address; 15 s timeout, two attempts) and
    /// one media playlist for the duration. Throws `DownloadError` when `text` is not an http(s)
    /// address, a playlist has errors, the stream is live or uses unsupported encryption, or it
    /// lists no variants; a failed fetch throws the fetcher's error.
    public func inspect(_ text: String) async throws -> StreamInspection { try await inspectVariants(text).inspection }

    /// The inspection and the inspected variants it was made from.
    func inspectVariants(_ text: String) async throws -> (inspection: StreamInspection, variants: [Variant]) {
        guard let url = Self.httpURL(text) else {
            throw DownloadError.selection(
                text.trimmingCharacters(in: .whitespaces).isEmpty
                    ? "Paste the address of an HLS playlist (http:// or https://)."
                    : "“\(text)” is not an http:// or https:// address.")
        }
        let fetcher = HTTPFetcher(concurrency: 2, policy: RetryPolicy(maximumAttempts: 2), timeout: .seconds(15))
        do {
            let result = try await inspect(url, fetcher: fetcher)
            try? await fetcher.shutdown()
            return result
        } catch {
            try? await fetcher.shutdown()
            throw error
        }
    }

    func inspect(_ url: URL, fetcher: HTTPFetcher) async throws -> (inspection: StreamInspection, variants: [Variant]) {
        let (data, finalURL) = try await fetcher.fetch(url, maximumBytes: HTTPFetcher.Limit.playlist)
        let parsed = PlaylistParser.parse(data, options: ParseOptions(url: finalURL))
        guard let playlist = parsed.playlist, parsed.errors.isEmpty else { throw DownloadError.playlist(url: finalURL, errors: parsed.errors) }
        let multivariant: MultivariantPlaylist
        var duration: Double?
        switch playlist {
        case .media(let media):
            try MediaLayout.validate(media, url: finalURL)
            duration = media.duration
            multivariant = try Self.multivariant(from: data, url: finalURL)
        case .multivariant(let m):
            multivariant = m
        }
        guard !multivariant.variants.isEmpty else {
            throw DownloadError.selection("\(finalURL.absoluteString) lists no variants to download.")
        }
        let variants = multivariant.inspectedVariants(baseURL: finalURL)
        if duration == nil, let first = variants.first, let mediaURL = URL(string: first.uri) {
            let (mediaData, mediaFinal) = try await fetcher.fetch(mediaURL, maximumBytes: HTTPFetcher.Limit.playlist)
            let mediaParsed = PlaylistParser.parse(mediaData, options: ParseOptions(url: mediaFinal))
            guard let media = mediaParsed.playlist?.media, mediaParsed.errors.isEmpty else {
                throw DownloadError.playlist(
                    url: mediaFinal,
                    errors: mediaParsed.errors.isEmpty
                        ? [Diagnostic(.error, line: 1, column: 1, message: "expected a media playlist")] : mediaParsed.errors)
            }
            try MediaLayout.validate(media, url: mediaFinal)
            duration = media.duration
        }
        let choices = variants.map { v -> StreamInspection.Choice in
            let rate = v.averageBitRate ?? v.peakBitRate
            return StreamInspection.Choice(
                uri: v.uri, badges: Self.badges(for: v), width: v.videoAttributes?.presentationSize?.width,
                height: v.videoAttributes?.presentationSize?.height, frameRate: v.videoAttributes?.nominalFrameRate,
                videoRange: v.videoAttributes?.videoRange.rawValue, codecs: v.codecs.map(\.string),
                peakBitRate: v.peakBitRate, averageBitRate: v.averageBitRate,
                audio: (v.audioAttributes?.renditions ?? []).map {
                    StreamInspection.Audio(
                        name: $0.name, language: $0.language, channels: $0.channelCount,
                        isImmersive: $0.isImmersive, isDefault: $0.isDefault)
                },
                subtitles: v.subtitleRenditions.map { StreamInspection.Subtitles(name: $0.name, language: $0.language, forced: $0.forced) },
                estimatedBytes: rate.flatMap { r in duration.map { Int64(Double(r) * $0 / 8) } })
        }
        func languages(_ type: MediaType) -> [String] {
            var seen: [String] = []
            for r in multivariant.renditions where r.type == type { if let l = r.language, !seen.contains(l) { seen.append(l) } }
            return seen
        }
        let inspection = StreamInspection(
            url: finalURL.absoluteString, kind: playlist.media != nil ? "media" : "multivariant",
            title: Self.suggestedTitle(for: finalURL, playlist: multivariant), duration: duration, variants: choices,
            audioLanguages: languages(.audio), subtitleLanguages: languages(.subtitles))
        return (inspection, variants)
    }

    /// The catalogue badges plus "Spatial" for stereoscopic video or immersive audio.
    static func badges(for variant: Variant) -> [String] {
        var names = variant.badges.map(\.rawValue)
        let stereo = variant.videoAttributes?.videoLayout?.uppercased().contains("CH-STEREO") ?? false
        let immersive = variant.audioAttributes?.renditions.contains { $0.isImmersive || $0.isBinaural } ?? false
        if stereo || immersive { names.append("Spatial") }
        return names
    }

    /// `text` as an absolute http(s) URL, or nil.
    static func httpURL(_ text: String) -> URL? {
        HTTPAddress.url(text)
    }

    /// The playlist as a multivariant playlist; a media playlist becomes its only variant.
    static func multivariant(from data: Data, url: URL) throws -> MultivariantPlaylist {
        let parsed = PlaylistParser.parse(data, options: ParseOptions(url: url))
        guard let playlist = parsed.playlist, parsed.errors.isEmpty else { throw DownloadError.playlist(url: url, errors: parsed.errors) }
        switch playlist {
        case .multivariant(let m): return m
        case .media:
            var m = MultivariantPlaylist()
            m.variants = [VariantStream(uri: url.absoluteString)]
            return m
        }
    }

    /// A title for a stream: the playlist's own (its first `EXT-X-SESSION-DATA` with
    /// `DATA-ID="com.apple.hls.title"` and an inline value), else from the URL's path — the
    /// file name, or the nearest folder's for generic names like `master.m3u8` or
    /// `hls/index.m3u8` — and never the host, which names the server rather than the stream.
    static func suggestedTitle(for url: URL, playlist: MultivariantPlaylist? = nil) -> String {
        let chosen = playlist?.sessionData.first { $0.dataID == "com.apple.hls.title" && $0.value != nil }
        if let value = chosen?.value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty { return value }
        let generic: Set<String> = [
            "master", "index", "playlist", "prog_index", "main", "manifest", "stream", "hls", "vod", "video", "media", "output",
        ]
        let names = url.pathComponents.filter { $0 != "/" }.map { ($0 as NSString).deletingPathExtension }.filter { !$0.isEmpty }
        if let name = names.last(where: { !generic.contains($0.lowercased()) }) { return name }
        return names.last ?? "Download"
    }
}

/// Plain words for why a download could not be inspected, planned or finished.
enum DownloadFailureText {
    static let reasons = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
        429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
    ]

    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as DownloadError:
            switch error {
            case .http(let url, let status):
                let phrase = reasons[status].map { " (\($0))" } ?? ""
                return "The server answered HTTP \(status)\(phrase) for \(url.absoluteString)."
            case .gaveUp(let url, let attempts, let reason):
                return "Could not fetch \(url.absoluteString): \(reason) (gave up after \(attempts) attempt\(attempts == 1 ? "" : "s"))."
            case .liveStream(let url):
                return "\(url.absoluteString) is a live stream (its playlist has no end). Only on-demand streams can be downloaded."
            case .playlist(let url, let errors):
                let first = errors.first.map { "line \($0.line): \($0.fullMessage)" } ?? "it could not be read"
                return "\(url.absoluteString) is not a usable HLS playlist: \(first)."
            case .notMultivariant(let url):
                return "\(url.absoluteString) is not a multivariant playlist."
            case .selection(let message):
                return message
            case .unsupportedEncryption(let url, let method, _):
                return "\(url.absoluteString) is protected with \(method); only clear or AES-128 streams can be downloaded."
            case .io(_, let reason):
                return "Could not write the download to disk: \(reason)."
            default:
                return error.description
            }
        case let error as PredicateFormatError:
            return "The predicate is not valid at column \(error.column): \(error.message)"
        default:
            return String(describing: error)
        }
    }
}
