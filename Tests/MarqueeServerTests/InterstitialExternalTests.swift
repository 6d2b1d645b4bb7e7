import Foundation
import Hummingbird
import HummingbirdTesting
import Playback
import Testing

@testable import Library
@testable import MarqueeServer

/// The relay that lets the web player play an external HLS ad: it fetches only from the
/// origins the break names (and those its asset list names), follows no redirect, and names
/// the other server's refusal.
@Suite("Interstitials: external ads through the server", .serialized)
struct InterstitialExternalTests {
    static func otherServer() -> some ApplicationProtocol {
        let router = Router()
        router.get("ad/master.m3u8") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "application/vnd.apple.mpegurl"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "#EXTM3U\n")))
        }
        router.get("moved") { _, _ -> Response in
            Response(status: .found, headers: [.location: "http://169.254.169.254/latest/meta-data"])
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test("Relays what the break names; refuses other origins, unknown sessions and events; passes on refusals and redirects as 502")
    func relay() async throws {
        try await Self.otherServer().test(.live) { other in
            let port = try #require(other.port)
            let base = "http://127.0.0.1:\(port)"
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-external-\(UUID().uuidString)")
            let server = MarqueeServer(library: try MediaLibrary(location: LibraryLocation(dataDirectory: root)))
            let ad = InterstitialEvent(id: "ext", time: 10, url: "\(base)/ad/master.m3u8", duration: 5)
            await server.sessions.insert(
                PlaybackSession(id: "s1", assetID: "feature", metadata: DisplayMetadata(title: "Feature"), interstitials: [ad]))
            @Sendable func relayed(_ url: String, session: String = "s1", event: String = "ext") -> String {
                let query = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
                return "/api/sessions/\(session)/interstitials/\(event)/external?url=\(query)"
            }
            try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
                try await client.execute(uri: relayed("\(base)/ad/master.m3u8"), method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == "#EXTM3U\n")
                    #expect(response.headers[.contentType] == "application/vnd.apple.mpegurl")
                }
                let refusals: [(String, HTTPResponse.Status, String)] = [
                    (relayed("http://127.0.0.1:9/ad/master.m3u8"), .forbidden, "is not where interstitial event ext's content is"),
                    (relayed("http://10.0.0.1/x"), .forbidden, "is not where"),
                    (relayed("file:///etc/passwd"), .badRequest, "is not an absolute http or https URL"),
                    (relayed("\(base)/ad/master.m3u8", session: "nope"), .notFound, "No session nope"),
                    (relayed("\(base)/ad/master.m3u8", event: "nope"), .notFound, "has no interstitial event nope"),
                    (relayed("\(base)/missing.m3u8"), .badGateway, "answered HTTP 404"),
                    (relayed("\(base)/moved"), .badGateway, "answered HTTP 302"),
                    ("/api/sessions/s1/interstitials/ext/external", .badRequest, "Give the external URL"),
                ]
                for (uri, status, message) in refusals {
                    try await client.execute(uri: uri, method: .get) { response in
                        #expect(response.status == status, "\(uri)")
                        #expect(String(buffer: response.body).contains(message), "\(uri): \(String(buffer: response.body))")
                    }
                }
            }
        }
    }

    @Test("An asset list's assets' origins are allowed once the list came through the relay, for that break only")
    func assetListOrigins() async throws {
        let origins = ExternalAdOrigins()
        let event = InterstitialEvent(id: "e", time: 0, url: "", duration: 5, assetListURL: "https://lists.example/l.json")
        #expect(await origins.allows("https://lists.example:443", for: event, sessionID: "s"))
        #expect(await !origins.allows("https://cdn.example:443", for: event, sessionID: "s"))
        await origins.allowAssets(
            of: Data(#"{"ASSETS": [{"URI": "https://cdn.example/a/master.m3u8", "DURATION": 5}, {"URI": "relative.m3u8", "DURATION": 1}]}"#.utf8),
            for: "e", sessionID: "s")
        #expect(await origins.allows("https://cdn.example:443", for: event, sessionID: "s"))
        #expect(await !origins.allows("https://cdn.example:443", for: event, sessionID: "other"))
        #expect(ExternalAdOrigins.origin(of: URL(string: "HTTP://Ads.Example/x")!) == "http://ads.example:80")
        #expect(ExternalAdOrigins.origin(of: URL(string: "ftp://ads.example/x")!) == nil)
    }

    @Test("X-SNAP's boundaries are the first video variant's segment starts and its end")
    func segmentBoundaries() {
        func track(_ segments: [(Double, Double)]) -> PlaybackManifest.Track {
            PlaybackManifest.Track(
                id: "v", mimeType: "video/mp4", initialization: "",
                segments: segments.map { PlaybackManifest.Track.Segment(url: "", start: $0.0, duration: $0.1) })
        }
        let manifest = PlaybackManifest(
            version: 1, assetID: "a", duration: 14, hlsURL: "", video: [track([(0, 6), (6, 6), (12, 2)]), track([(0, 14)])], audio: [],
            subtitles: [], trickPlay: nil, trickPlayURL: nil, badges: [])
        #expect(InterstitialSegmentBoundaries.of(manifest) == [0, 6, 12, 14])
    }
}
