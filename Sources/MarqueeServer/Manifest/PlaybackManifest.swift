public import Foundation
public import HLS
public import Library

/// The JSON a web player's Media Source Extensions loader plays from, derived on the server
/// from the asset's HLS playlists with the `HLS` module, so JavaScript never parses a
/// playlist. Version 1; see docs/renderer-protocol.md.
public struct PlaybackManifest: Codable, Sendable, Hashable {
    /// One fMP4 track to append to a `SourceBuffer`: an init section and timed segments.
    public struct Track: Codable, Sendable, Hashable {
        /// One media segment of a track.
        public struct Segment: Codable, Sendable, Hashable {
            /// Where to fetch it: the URI resolved under the bundle's URL prefix, or as written when it
            /// is absolute or starts with `/`.
            public var url: String
            /// Its start on the item's timeline, in seconds.
            public var start: Double
            /// Its `EXTINF` duration, in seconds.
            public var duration: Double
        }

        /// `video-N` (N: the variant's position in the playlist), `audio-LANG-N` or `subtitles-N`.
        public var id: String
        /// `video/mp4; codecs="…"` or `audio/mp4; codecs="…"`, for `MediaSource.isTypeSupported`.
        public var mimeType: String
        /// The init section (`EXT-X-MAP`) URL; empty when the playlist has none.
        public var initialization: String
        /// The segments in playlist order, with their start times.
        public var segments: [Segment]
        /// For video: the variant's peak bit rate in bits per second; `nil` for audio.
        public var bandwidth: Int?
        /// For video: the picture's width in pixels, when declared.
        public var width: Int?
        /// For video: the picture's height in pixels, when declared.
        public var height: Int?
        /// For audio: the rendition's `NAME`, for the audio menu; `nil` for video.
        public var name: String?
        /// For audio: the rendition's language tag, when declared; `nil` for video.
        public var language: String?
        /// For audio: whether the rendition is `DEFAULT=YES`; `nil` for video.
        public var isDefault: Bool?
    }

    /// A WebVTT subtitle rendition.
    public struct Subtitles: Codable, Sendable, Hashable {
        /// `subtitles-LANG-N` (`und` when the rendition has no language).
        public var id: String
        /// The rendition's `NAME`, for the captions menu.
        public var name: String
        /// The rendition's language tag; `nil` when not declared.
        public var language: String?
        /// Whether the rendition is `DEFAULT=YES`.
        public var isDefault: Bool
        /// The WebVTT segment URLs, in order.
        public var urls: [String]
    }

    /// The manifest format's version; always 1.
    public var version: Int
    /// The library asset the manifest is for.
    public var assetID: String
    /// The longest media playlist's duration, in seconds.
    public var duration: Double
    /// The multivariant playlist, for players with native HLS (Safari).
    public var hlsURL: String
    /// One track per variant, lowest bandwidth first.
    public var video: [Track]
    /// The audio renditions of the groups the variants name; empty when audio is muxed into video.
    public var audio: [Track]
    /// The subtitle renditions of the groups the variants name.
    public var subtitles: [Subtitles]
    /// The trick-play sprite sheet's layout; `nil` when the bundle has none.
    public var trickPlay: TrickPlayImages?
    /// The sprite sheet's URL; `nil` when the bundle has none.
    public var trickPlayURL: String?
    /// The multivariant playlist's catalogue badges ("4K", "HDR", "CC"…).
    public var badges: [String]

    /// What can go wrong deriving a manifest.
    public enum Failure: Error, Sendable {
        /// A playlist file (named by its path in the bundle) could not be read as UTF-8 text.
        case unreadable(String)
        /// A playlist (its path in the bundle) did not parse as the kind expected, with the first error.
        case invalidPlaylist(String, String)
    }

    /// Reads `master.m3u8` (or `playlist`) and its media playlists from `bundle` and builds the
    /// manifest; `urlPrefix` is where the bundle is served (e.g. `/media/ID`).
    public static func build(assetID: String, bundle: URL, urlPrefix: String, playlist: String = BundleLayout.multivariantPlaylist) throws -> PlaybackManifest {
        let multivariant = try multivariantPlaylist(at: bundle.appendingPathComponent(playlist))
        var duration = 0.0
        func track(uri: String, id: String, mimeType: String, timesTheItem: Bool = true) throws -> Track {
            let mediaURL = bundle.appendingPathComponent(uri)
            guard let text = try? String(contentsOf: mediaURL, encoding: .utf8) else { throw Failure.unreadable(uri) }
            let result = PlaylistParser.parse(text)
            guard let media = result.playlist?.media else {
                throw Failure.invalidPlaylist(uri, result.errors.first?.fullMessage ?? "not a media playlist")
            }
            let directory = (uri as NSString).deletingLastPathComponent
            func url(_ relative: String) -> String {
                if relative.contains("://") || relative.hasPrefix("/") { return relative }
                return urlPrefix + "/" + (directory.isEmpty ? relative : directory + "/" + relative)
            }
            let starts = media.segmentStartTimes
            // The item lasts as long as its pictures and sound: a subtitle playlist that runs
            // on past them does not stretch it.
            if timesTheItem { duration = max(duration, media.duration) }
            let initialization = media.segments.first?.map?.uri ?? ""
            return Track(
                id: id, mimeType: mimeType, initialization: initialization.isEmpty ? "" : url(initialization),
                segments: zip(media.segments, starts).map { segment, start in
                    Track.Segment(url: url(segment.uri), start: start, duration: segment.duration)
                })
        }

        let variants = multivariant.inspectedVariants()
        var video: [Track] = []
        var audioGroups: [String] = []
        var subtitleGroups: [String] = []
        for (index, variant) in variants.enumerated() {
            let videoCodecs = variant.codecs.filter { $0.kind == .video }.map(\.string)
            let audioCodecs = variant.codecs.filter { $0.kind == .audio }.map(\.string)
            let muxedAudio = variant.stream.audio == nil ? audioCodecs : []
            let codecs = (videoCodecs + muxedAudio).joined(separator: ",")
            var entry = try track(uri: variant.stream.uri, id: "video-\(index)", mimeType: "video/mp4; codecs=\"\(codecs)\"")
            entry.bandwidth = variant.peakBitRate
            entry.width = variant.videoAttributes?.presentationSize?.width
            entry.height = variant.videoAttributes?.presentationSize?.height
            video.append(entry)
            if let group = variant.stream.audio, !audioGroups.contains(group) { audioGroups.append(group) }
            if let group = variant.stream.subtitles, !subtitleGroups.contains(group) { subtitleGroups.append(group) }
        }
        video.sort { ($0.bandwidth ?? 0) < ($1.bandwidth ?? 0) }

        var audio: [Track] = []
        var audioIndex = 0
        for group in audioGroups {
            // Each group's codec is the one its variants name (AAC in one group, AC-3 in another).
            let groupCodec = variants.first { $0.stream.audio == group }.flatMap { $0.codecs.first { $0.kind == .audio }?.string }
            let audioCodec = groupCodec ?? "mp4a.40.2"
            for rendition in multivariant.renditions(ofType: .audio, group: group) {
                guard let uri = rendition.uri else { continue }
                // IDs count across groups, so two groups with the same language never share one.
                let index = audioIndex
                audioIndex += 1
                var entry = try track(uri: uri, id: "audio-\(rendition.language ?? "und")-\(index)", mimeType: "audio/mp4; codecs=\"\(audioCodec)\"")
                entry.name = rendition.name
                entry.language = rendition.language
                entry.isDefault = rendition.isDefault
                audio.append(entry)
            }
        }

        var subtitles: [Subtitles] = []
        var subtitleIndex = 0
        for group in subtitleGroups {
            for rendition in multivariant.renditions(ofType: .subtitles, group: group) {
                guard let uri = rendition.uri else { continue }
                let index = subtitleIndex
                subtitleIndex += 1
                let subtitleTrack = try track(uri: uri, id: "subtitles-\(index)", mimeType: "text/vtt", timesTheItem: false)
                subtitles.append(
                    Subtitles(
                        id: "subtitles-\(rendition.language ?? "und")-\(index)", name: rendition.name, language: rendition.language,
                        isDefault: rendition.isDefault, urls: subtitleTrack.segments.map(\.url)))
            }
        }

        let trickPlayFile = bundle.appendingPathComponent(BundleLayout.trickPlayDescription)
        let trickPlay = (try? Data(contentsOf: trickPlayFile)).flatMap { try? JSONDecoder().decode(TrickPlayImages.self, from: $0) }
        return PlaybackManifest(
            version: 1, assetID: assetID, duration: duration, hlsURL: urlPrefix + "/" + playlist,
            video: video, audio: audio, subtitles: subtitles, trickPlay: trickPlay,
            trickPlayURL: trickPlay.map { urlPrefix + "/" + $0.image },
            badges: multivariant.badges().map(\.rawValue))
    }

    static func multivariantPlaylist(at url: URL) throws -> MultivariantPlaylist {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw Failure.unreadable(url.lastPathComponent) }
        let result = PlaylistParser.parse(text)
        guard let playlist = result.playlist?.multivariant else {
            throw Failure.invalidPlaylist(url.lastPathComponent, result.errors.first?.fullMessage ?? "not a multivariant playlist")
        }
        return playlist
    }
}
