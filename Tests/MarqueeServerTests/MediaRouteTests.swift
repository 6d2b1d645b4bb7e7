import Foundation
import Hummingbird
import HummingbirdTesting
import Library
import NIOFoundationCompat
import Testing

@testable import MarqueeServer

@Suite("Media routes and manifest", .serialized)
struct MediaRouteTests {
    @Test func manifestIsDerivedFromThePlaylists() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/assets/\(fixture.clipID)/manifest.json", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == ServedFileKind.shortLived)
                let manifest = try response.json(PlaybackManifest.self)
                #expect(manifest.version == 1)
                #expect(abs(manifest.duration - 4) < 0.2)
                #expect(manifest.hlsURL == "/media/\(fixture.clipID)/master.m3u8")
                let video = try #require(manifest.video.first)
                #expect(video.mimeType.hasPrefix("video/mp4; codecs=\"avc1."))
                #expect(video.width == 320 && video.height == 180)
                #expect(video.initialization == "/media/\(fixture.clipID)/video/init.mp4")
                #expect(abs(video.segments.reduce(0) { $0 + $1.duration } - manifest.duration) < 0.2)
                #expect(video.segments.first?.start == 0)
                #expect(manifest.audio.map(\.name) == ["English", "Français"])
                #expect(manifest.audio.map(\.language) == ["en", "fr"])
                #expect(manifest.audio.first?.isDefault == true)
                #expect(manifest.audio.first?.mimeType == "audio/mp4; codecs=\"mp4a.40.2\"")
                #expect(manifest.subtitles.map(\.language) == ["en"])
                // Segmented WebVTT: one URL per segment of the subtitle playlist, in order.
                #expect(
                    manifest.subtitles.first?.urls == [
                        "/media/\(fixture.clipID)/subtitles-1/subtitles-00001.vtt",
                        "/media/\(fixture.clipID)/subtitles-1/subtitles-00002.vtt",
                    ])
                #expect(manifest.trickPlay?.count == 4)
            }
        }
    }

    @Test func segmentsAreImmutableWithRightTypes() async throws {
        let fixture = try await ServerFixture.shared.value
        let id = fixture.clipID
        try await fixture.application().test(.router) { client in
            let expectations: [(String, String, String)] = [
                ("master.m3u8", "application/vnd.apple.mpegurl", ServedFileKind.shortLived),
                ("video/index.m3u8", "application/vnd.apple.mpegurl", ServedFileKind.shortLived),
                ("video/init.mp4", "video/mp4", ServedFileKind.immutable),
                ("video/segment-00000.m4s", "video/iso.segment", ServedFileKind.immutable),
                ("subtitles-1/subtitles-00001.vtt", "text/vtt; charset=utf-8", ServedFileKind.immutable),
                ("poster.jpg", "image/jpeg", ServedFileKind.immutable),
                ("trickplay.jpg", "image/jpeg", ServedFileKind.immutable),
            ]
            for (path, type, cache) in expectations {
                try await client.execute(uri: "/media/\(id)/\(path)", method: .get) { response throws in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType] == type, "\(path)")
                    #expect(response.headers[.cacheControl] == cache, "\(path)")
                    #expect(response.headers[.acceptRanges] == "bytes")
                    #expect(response.body.readableBytes > 0)
                }
            }
        }
    }

    @Test func byteRangesAndConditionalRequests() async throws {
        let fixture = try await ServerFixture.shared.value
        let file = fixture.library.location.bundleDirectory(for: fixture.clipID).appendingPathComponent("video/segment-00000.m4s")
        let bytes = try Data(contentsOf: file)
        let uri = "/media/\(fixture.clipID)/video/segment-00000.m4s"
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=10-19"]) { response throws in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 10-19/\(bytes.count)")
                #expect(Data(buffer: response.body) == bytes[10...19])
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=-8"]) { response throws in
                #expect(response.status == .partialContent)
                #expect(Data(buffer: response.body) == bytes.suffix(8))
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=\(bytes.count)-"]) { response throws in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */\(bytes.count)")
            }
            let eTag = try await client.execute(uri: uri, method: .get) { response throws in
                #expect(Data(buffer: response.body) == bytes)
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: eTag]) { response throws in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test(arguments: [
        "/media/ASSET/..%2F..%2Flibrary.sqlite",
        "/media/ASSET/../../library.sqlite",
        "/media/..%2F/library.sqlite",
        "/media/ASSET/%2Fetc%2Fpasswd",
        "/media/ASSET/missing.m4s",
        "/ui/..%2F..%2FPackage.swift",
    ])
    func pathsCannotEscapeTheDataDirectory(template: String) async throws {
        let fixture = try await ServerFixture.shared.value
        let uri = template.replacingOccurrences(of: "ASSET", with: fixture.clipID)
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response throws in
                #expect(response.status == .notFound)
                #expect(!response.text.contains("SQLite format"))
                #expect(!response.text.contains("root:"))
            }
        }
    }

    @Test func webPagesAreServed() async throws {
        let fixture = try await ServerFixture.shared.value
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                // Named under the web root's version (WebPages).
                #expect(response.text.contains(/"\/ui\/v\/[0-9a-f]{12}\/js\/library\.js"/))
            }
            try await client.execute(uri: "/watch/\(fixture.clipID)", method: .get) { response throws in
                #expect(response.text.contains(/"\/ui\/v\/[0-9a-f]{12}\/js\/player\/main\.js"/))
            }
            try await client.execute(uri: "/ui/js/player/main.js", method: .get) { response throws in
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
            }
        }
    }
}

@Suite("Byte range parsing")
struct ByteRangeTests {
    @Test func parsesTheForms() {
        #expect(ByteRangeRequest(header: "bytes=0-9", size: 100) == .partial(0...9))
        #expect(ByteRangeRequest(header: "bytes=90-", size: 100) == .partial(90...99))
        #expect(ByteRangeRequest(header: "bytes=-10", size: 100) == .partial(90...99))
        #expect(ByteRangeRequest(header: "bytes=95-200", size: 100) == .partial(95...99))
        #expect(ByteRangeRequest(header: "bytes=100-", size: 100) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=9-1", size: 100) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=0-1,5-6", size: 100) == .whole)
        #expect(ByteRangeRequest(header: nil, size: 100) == .whole)
        #expect(ByteRangeRequest(header: "items=0-1", size: 100) == .whole)
    }
}
