import BlockingWork
import Foundation
import HLS
import Hummingbird
import Library
import NIOCore
import NIOPosix
import Playback

/// The playlists Marquee serves for an asset with interstitial events: each media playlist
/// gains `EXT-X-PROGRAM-DATE-TIME` and one `EXT-X-DATERANGE` (`CLASS="com.apple.hls.interstitial"`)
/// per event, and the multivariant playlist the skip labels as `EXT-X-SESSION-DATA`. An asset
/// without events is served from its files unchanged.
struct InterstitialPlaylists: Sendable {
    let library: MediaLibrary

    /// The decorated text of the playlist at `path` in the asset's bundle, or nil when the
    /// file should be served as it is (no events, not a playlist, not found).
    func playlist(assetID: String, path: String) async throws -> String? {
        guard path.lowercased().hasSuffix(".m3u8"),
            let asset = try await library.asset(id: assetID), let length = asset.duration
        else { return nil }
        let events = try await library.authoredInterstitials(for: asset.id)
        guard !events.isEmpty else { return nil }
        let anchor = asset.createdAt
        guard let parts = MediaPath.components(path, assetID: assetID) else { return nil }
        // A folder store resolves the path (symbolic links may not lead out); object storage reads a local copy.
        let found =
            library.media.isLocal
            ? library.media.localFile(path, of: assetID) : parts.reduce(try await library.media.playlistFolder(for: assetID)) { $0.appendingPathComponent($1) }
        guard let file = found else { return nil }
        return try await BlockingWork.run { () -> String? in
            guard let data = try? Data(contentsOf: file) else { return nil }
            guard let playlist = PlaylistParser.parse(data).playlist else { return nil }
            return Self.decorate(playlist, events: events, primaryDuration: length, programDateTime: anchor)
        }
    }

    /// `playlist` with the events written in.
    static func decorate(_ playlist: Playlist, events: [AuthoredInterstitial], primaryDuration: Double, programDateTime: Date) -> String {
        switch playlist {
        case .media(var media):
            // I-frame and image playlists carry no interstitials.
            guard !media.iFramesOnly, !media.imagesOnly else { return PlaylistWriter.write(.media(media)) }
            media.scheduleInterstitials(events.map { $0.placed(primaryDuration: primaryDuration) }, programDateTime: programDateTime)
            return PlaylistWriter.write(.media(media))
        case .multivariant(var multivariant):
            let labels = events.flatMap(\.skipLabelSessionData)
            let ids = Set(labels.map(\.dataID))
            multivariant.sessionData.removeAll { ids.contains($0.dataID) }
            multivariant.sessionData += labels
            return PlaylistWriter.write(.multivariant(multivariant))
        }
    }
}

/// The HLS Interstitials asset list (`X-ASSET-LIST`) Marquee serves for an event: a JSON
/// object whose `ASSETS` each give a `URI` and a `DURATION`.
struct InterstitialAssetList: Codable, Sendable {
    struct Asset: Codable, Sendable {
        var uri: String
        var duration: Double
        enum CodingKeys: String, CodingKey { case uri = "URI", duration = "DURATION" }
    }
    var assets: [Asset]
    enum CodingKeys: String, CodingKey { case assets = "ASSETS" }
}

extension InterstitialPlaylists {
    /// A decorated playlist as a response: the files' playlist headers, with an ETag of the
    /// text, byte ranges and HEAD answered as for any file.
    static func response(_ text: String, request: Request) throws -> Response {
        let bytes = Array(text.utf8)
        // FNV-1a of the text: the same playlist has the same ETag across restarts.
        let hash = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        let eTag = "\"i-\(String(hash, radix: 36))\""
        var headers = HTTPFields()
        headers[.contentType] = "application/vnd.apple.mpegurl"
        headers[.cacheControl] = ServedFileKind.shortLived
        headers[.acceptRanges] = "bytes"
        headers[.eTag] = eTag
        if let match = request.headers[.ifNoneMatch], match == eTag || match == "*" {
            return Response(status: .notModified, headers: headers)
        }
        var range = ByteRangeRequest(header: request.headers[.range], size: bytes.count)
        if let ifRange = request.headers[.ifRange], ifRange != eTag { range = .whole }
        switch range {
        case .unsatisfiable:
            throw APIError(
                .rangeNotSatisfiable, "Range not satisfiable for a file of \(bytes.count) bytes",
                headers: [.contentRange: "bytes */\(bytes.count)"])
        case .partial(let part):
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(bytes.count)"
            headers[.contentLength] = String(part.count)
            if request.method == .head { return Response(status: .partialContent, headers: headers) }
            return Response(status: .partialContent, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes[part])))
        case .whole:
            headers[.contentLength] = String(bytes.count)
            if request.method == .head { return Response(status: .ok, headers: headers) }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
}

/// The interstitial events a new session of an asset plays: its authored events whose
/// library ads are ready (an ad still being ingested is left out rather than failing); or,
/// when nobody authored any, the breaks its own playlists carry (an imported download's
/// interstitial date ranges, with their restrictions).
struct SessionInterstitials: Sendable {
    let library: MediaLibrary

    func events(for assetID: String) async throws -> [InterstitialEvent] {
        var events: [InterstitialEvent] = []
        let authored = try await library.authoredInterstitials(for: assetID)
        for event in authored {
            if let adID = event.content.assetID {
                guard let ad = try await library.asset(id: adID), ad.status == .ready else { continue }
            }
            events.append(event.playbackEvent)
        }
        if authored.isEmpty { return try await streamEvents(for: assetID) }
        return events
    }

    /// The interstitials of the bundle's first variant playlist, their URIs made paths under `/media/{id}/`.
    func streamEvents(for assetID: String) async throws -> [InterstitialEvent] {
        let bundle = try await library.media.playlistFolder(for: assetID)
        return try await BlockingWork.run { () -> [InterstitialEvent] in
            let masterURL = bundle.appendingPathComponent(BundleLayout.multivariantPlaylist)
            guard let masterData = try? Data(contentsOf: masterURL),
                let master = PlaylistParser.parse(masterData).playlist?.multivariant,
                let variant = master.variants.first?.uri, !variant.contains("://"), !variant.hasPrefix("/"),
                let mediaData = try? Data(contentsOf: bundle.appendingPathComponent(variant)),
                let media = PlaylistParser.parse(mediaData).playlist?.media
            else { return [] }
            let base = URL(string: "/media/\(assetID)/\(variant)", relativeTo: URL(string: "http://bundle.invalid/"))
            return InterstitialEvent.events(in: media, labels: master.sessionData).map { event in
                var event = event
                if !event.url.isEmpty, let resolved = URL(string: event.url, relativeTo: base) {
                    event.url = resolved.host == "bundle.invalid" ? resolved.path : resolved.absoluteString
                }
                if let list = event.assetListURL, let resolved = URL(string: list, relativeTo: base) {
                    event.assetListURL = resolved.host == "bundle.invalid" ? resolved.path : resolved.absoluteString
                }
                return event
            }
        }
    }
}
