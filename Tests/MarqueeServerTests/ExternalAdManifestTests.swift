import Foundation
import HTTPTypes
import Testing

@testable import MarqueeServer

/// An external HLS ad read into the MSE loader's manifest on the server (the page parses no
/// playlist): variants lightest first, the first variant's audio group, absolute URLs through
/// the relay, and a plain refusal for what MSE cannot play.
@Suite("External HLS ads as playback manifests")
struct ExternalAdManifestTests {
    static let master = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/en.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"
        video/720.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=600000,RESOLUTION=640x360,CODECS="avc1.42e01e,mp4a.40.2",AUDIO="aud"
        video/360.m3u8

        """

    static func media(_ name: String, extra: String = "", map: Bool = true) -> String {
        """
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        \(extra)\(map ? "#EXT-X-MAP:URI=\"\(name)-init.mp4\"\n" : "")#EXTINF:2.0,
        \(name)-0.m4s
        #EXTINF:1.5,
        \(name)-1.m4s
        #EXT-X-ENDLIST

        """
    }

    /// Builds the manifest of `url` from `files` (by path), recording what was fetched.
    static func build(_ url: String, _ files: [String: String]) async throws -> (PlaybackManifest, [String]) {
        let asked = Asked()
        let manifest = try await ExternalAdManifest.build(
            url: URL(string: url)!,
            fetch: { address in
                await asked.add(address.absoluteString)
                guard let text = files[address.path] else { throw APIError(.badGateway, "\(address.absoluteString) answered HTTP 404") }
                return Data(text.utf8)
            },
            relay: { "/relay?url=" + $0.absoluteString })
        return (manifest, await asked.all)
    }

    actor Asked {
        var all: [String] = []
        func add(_ url: String) { all.append(url) }
    }

    @Test("Variants come lightest first with their video codecs, audio renditions with theirs, every URL through the relay")
    func aMultivariantPlaylistBecomesTracks() async throws {
        let (manifest, asked) = try await Self.build(
            "http://ads.example:8081/ads/master.m3u8",
            [
                "/ads/master.m3u8": Self.master, "/ads/video/720.m3u8": Self.media("v720"), "/ads/video/360.m3u8": Self.media("v360"),
                "/ads/audio/en.m3u8": Self.media("en"),
            ])
        #expect(manifest.video.map(\.bandwidth) == [600_000, 2_000_000])
        #expect(manifest.video.map(\.mimeType) == ["video/mp4; codecs=\"avc1.42e01e\"", "video/mp4; codecs=\"avc1.64001f\""])
        #expect(manifest.video[0].width == 640 && manifest.video[0].height == 360)
        #expect(manifest.video[0].initialization == "/relay?url=http://ads.example:8081/ads/video/v360-init.mp4")
        #expect(
            manifest.video[0].segments == [
                .init(url: "/relay?url=http://ads.example:8081/ads/video/v360-0.m4s", start: 0, duration: 2),
                .init(url: "/relay?url=http://ads.example:8081/ads/video/v360-1.m4s", start: 2, duration: 1.5),
            ])
        #expect(manifest.duration == 3.5)
        #expect(manifest.audio.map(\.mimeType) == ["audio/mp4; codecs=\"mp4a.40.2\""])
        #expect(manifest.audio.first?.language == "en" && manifest.audio.first?.isDefault == true)
        #expect(manifest.audio.first?.initialization == "/relay?url=http://ads.example:8081/ads/audio/en-init.mp4")
        #expect(asked.first == "http://ads.example:8081/ads/master.m3u8" && asked.count == 4)
    }

    @Test("Muxed audio stays in the one video track when there are no renditions")
    func muxedAudioStaysInTheVideoTrack() async throws {
        let (manifest, _) = try await Self.build(
            "http://a.example/m.m3u8",
            ["/m.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.42e01e,mp4a.40.2\"\nv.m3u8\n", "/v.m3u8": Self.media("v")])
        #expect(manifest.video.map(\.mimeType) == ["video/mp4; codecs=\"avc1.42e01e,mp4a.40.2\""])
        #expect(manifest.audio.isEmpty)
    }

    @Test(
        "What MSE cannot play is refused with the reason",
        arguments: [
            (media("v", map: false), "MPEG-TS"),
            (media("v", extra: "#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n"), "encrypted"),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"i.mp4\"\n#EXTINF:2,\n#EXT-X-BYTERANGE:100@0\na.m4s\n", "byte-range"),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-ENDLIST\n", "no segments"),
        ])
    func unplayableMediaIsRefused(media: String, reason: String) async throws {
        let files = ["/m.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.42e01e\"\nv.m3u8\n", "/v.m3u8": media]
        do {
            _ = try await Self.build("http://x.example/m.m3u8", files)
            Issue.record("accepted a playlist with \(reason)")
        } catch let refusal as ExternalAdManifest.Unplayable {
            #expect(refusal.description.contains(reason))
            #expect(refusal.apiError.status == .unprocessableContent && refusal.apiError.code == "unplayable-ad")
        }
    }

    @Test("A media playlist, a variant without CODECS and a missing playlist are refused")
    func otherRefusals() async throws {
        await #expect(throws: ExternalAdManifest.Unplayable.self) { _ = try await Self.build("http://x.example/v.m3u8", ["/v.m3u8": Self.media("v")]) }
        await #expect(throws: ExternalAdManifest.Unplayable.self) {
            _ = try await Self.build(
                "http://x.example/m.m3u8", ["/m.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", "/v.m3u8": Self.media("v")])
        }
        await #expect(throws: APIError.self) { _ = try await Self.build("http://x.example/gone.m3u8", [:]) }
    }

    @Test("A path on this server names a library asset; nothing else does")
    func libraryPaths() {
        #expect(InterstitialExternalRoutes.libraryAssetID(inPath: "/media/abc/master.m3u8") == "abc")
        #expect(InterstitialExternalRoutes.libraryAssetID(inPath: "/api/assets/abc/manifest.json") == "abc")
        #expect(InterstitialExternalRoutes.libraryAssetID(inPath: "/media/abc/video/720.m3u8") == nil)
        #expect(InterstitialExternalRoutes.libraryAssetID(inPath: "/media//master.m3u8") == nil)
        #expect(InterstitialExternalRoutes.libraryAssetID(inPath: "/etc/passwd") == nil)
    }
}
