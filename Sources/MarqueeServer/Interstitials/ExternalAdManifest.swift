import Foundation
import HLS
import HTTPTypes

/// The playback manifest of an external HLS ad (an interstitial's `X-ASSET-URI`, or an asset of
/// its asset list, on another server), built on the server with the `HLS` parser it owns, so
/// the web player never parses a playlist. It holds the multivariant playlist's variants (the
/// lowest bandwidth first) and the audio renditions of the first variant's group, each with its
/// init section (`EXT-X-MAP`) and timed segments.
///
/// Only what Media Source Extensions can play is accepted: fMP4 segments, no encryption, no
/// byte ranges, a `CODECS` attribute. Anything else is refused with a sentence saying why, and
/// the page reports the break failed (the session skips it). Which of the variants this browser
/// can decode is still the browser's call (`MediaSource.isTypeSupported`).
enum ExternalAdManifest {
    /// Why an ad cannot be played, in words for the person who configured it.
    struct Unplayable: Error, Sendable, CustomStringConvertible, APIErrorConvertible {
        var description: String
        init(_ description: String) { self.description = description }

        /// `422` with the reason: the playlist is fine HLS, but not what this player plays.
        var apiError: APIError { APIError(.unprocessableContent, "This ad cannot play here: \(description)", code: "unplayable-ad") }
    }

    /// The manifest for the multivariant playlist at `url`: `fetch` reads a playlist (as the
    /// external relay would: same origins, same limits) and `relay` is the address the page
    /// fetches an absolute URL from (this server's relay).
    static func build(
        url: URL, fetch: @Sendable (URL) async throws -> Data, relay: (URL) -> String
    ) async throws -> PlaybackManifest {
        let master = PlaylistParser.parse(try await fetch(url))
        guard let multivariant = master.playlist?.multivariant else {
            throw Unplayable("an HLS ad needs a multivariant playlist (its CODECS say what the segments hold)")
        }
        let variants = multivariant.inspectedVariants().sorted { ($0.peakBitRate ?? 0) < ($1.peakBitRate ?? 0) }
        guard let lowest = variants.first else { throw Unplayable("the multivariant playlist lists no variants") }
        let renditions = lowest.stream.audio.map { multivariant.renditions(ofType: .audio, group: $0).filter { $0.uri != nil } } ?? []
        let audioCodec = lowest.codecs.first { $0.kind == .audio }?.string ?? "mp4a.40.2"

        var video: [PlaybackManifest.Track] = []
        for (index, variant) in variants.enumerated() {
            let videoCodecs = variant.codecs.filter { $0.kind == .video }.map(\.string)
            let codecs = renditions.isEmpty ? variant.codecs.map(\.string) : videoCodecs
            guard !codecs.isEmpty else { throw Unplayable("a variant has no CODECS attribute") }
            guard let address = URL(string: variant.stream.uri, relativeTo: url)?.absoluteURL else {
                throw Unplayable("\"\(variant.stream.uri)\" is not a URL")
            }
            var track = try await Self.track(
                at: address, id: "video-\(index)", mimeType: "video/mp4; codecs=\"\(codecs.joined(separator: ","))\"", fetch: fetch, relay: relay)
            track.bandwidth = variant.peakBitRate
            track.width = variant.videoAttributes?.presentationSize?.width
            track.height = variant.videoAttributes?.presentationSize?.height
            video.append(track)
        }
        var audio: [PlaybackManifest.Track] = []
        for (index, rendition) in renditions.enumerated() {
            guard let uri = rendition.uri, let address = URL(string: uri, relativeTo: url)?.absoluteURL else { continue }
            var track = try await Self.track(at: address, id: "audio-\(index)", mimeType: "audio/mp4; codecs=\"\(audioCodec)\"", fetch: fetch, relay: relay)
            track.name = rendition.name
            track.language = rendition.language
            track.isDefault = rendition.isDefault
            audio.append(track)
        }
        let duration = video[0].segments.last.map { $0.start + $0.duration } ?? 0
        return PlaybackManifest(
            version: 1, assetID: "", duration: duration, hlsURL: url.absoluteString, video: video, audio: audio, subtitles: [],
            trickPlay: nil, trickPlayURL: nil, badges: [])
    }

    /// One media playlist as a track, checked for what MSE can play.
    static func track(
        at url: URL, id: String, mimeType: String, fetch: @Sendable (URL) async throws -> Data, relay: (URL) -> String
    ) async throws -> PlaybackManifest.Track {
        let parsed = PlaylistParser.parse(try await fetch(url))
        guard let media = parsed.playlist?.media else {
            throw Unplayable("\(url.absoluteString) is not a media playlist (\(parsed.errors.first?.fullMessage ?? "no segments"))")
        }
        guard !media.segments.isEmpty else { throw Unplayable("the media playlist has no segments") }
        if media.encryptionMethods.contains(where: { $0 != .none }) { throw Unplayable("encrypted HLS cannot play in this player") }
        if media.segments.contains(where: { $0.byteRange != nil || $0.map?.byteRange != nil }) {
            throw Unplayable("byte-range segments and init sections are not supported")
        }
        guard let map = media.segments.first?.map else {
            throw Unplayable("MPEG-TS segments cannot play in this player (no EXT-X-MAP, so not fMP4)")
        }
        func address(_ uri: String) throws -> String {
            guard let absolute = URL(string: uri, relativeTo: url)?.absoluteURL else { throw Unplayable("\"\(uri)\" is not a URL") }
            return relay(absolute)
        }
        let segments = try zip(media.segments, media.segmentStartTimes).map { segment, start in
            PlaybackManifest.Track.Segment(url: try address(segment.uri), start: start, duration: segment.duration)
        }
        return PlaybackManifest.Track(id: id, mimeType: mimeType, initialization: try address(map.uri), segments: segments)
    }
}
