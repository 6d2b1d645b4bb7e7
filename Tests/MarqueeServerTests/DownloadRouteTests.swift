import Downloads
import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import MediaTesting
import Playback
import Testing

@testable import Library
@testable import MarqueeServer

/// A runner whose download writes a bundle's playlists and its first segment, then waits:
/// a download under way, for playing while downloading.
final class PartialBundleRunner: DownloadRunner {
    let inner = FakeRunner()

    func prepare(_ request: DownloadRequest, into bundle: URL) async throws -> any RunningDownload {
        let folder = bundle.appendingPathComponent("video-640x360-600000")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-STREAM-INF:BANDWIDTH=600000,CODECS="avc1.640028",RESOLUTION=640x360
        video-640x360-600000/index.m3u8

        """.write(to: bundle.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        try """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-MAP:URI="init-1.mp4"
        #EXTINF:2.0,
        seg-00001.m4s
        #EXTINF:2.0,
        seg-00002.m4s
        #EXT-X-ENDLIST

        """.write(to: folder.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        try Data("init".utf8).write(to: folder.appendingPathComponent("init-1.mp4"))
        try Data("first".utf8).write(to: folder.appendingPathComponent("seg-00001.m4s"))
        let download = try await inner.prepare(request, into: bundle) as! FakeDownload
        download.report(files: 2, of: 3, bytes: 9)
        return download
    }
}

@Suite("Download routes", .serialized)
struct DownloadRouteTests {
    struct Fixture {
        let library: MediaLibrary
        let service: DownloadService
        let runner: PartialBundleRunner

        init() async throws {
            let root = try temporaryDirectory()
            library = try MediaLibrary(location: LibraryLocation(dataDirectory: root))
            runner = PartialBundleRunner()
            service = DownloadService(
                store: DownloadRecordStore(directory: root.appendingPathComponent("downloads")),
                runner: runner, importer: FakeImporter())
            try await service.start()
        }

        func application() -> some ApplicationProtocol {
            MarqueeServer(library: library, downloads: service).application(host: "127.0.0.1", port: 0)
        }
    }

    @Test func predicatesAreCheckedWithTheColumnOfTheError() async throws {
        let fixture = try await Fixture()
        try await fixture.application().test(.router) { client in
            try await client.execute(
                uri: "/api/downloads/validate", method: .post,
                body: .json(#"{"predicate": "peakBitRate < 5000000 AND videoAttributes.colour == 1"}"#)
            ) { response throws in
                #expect(response.status == .ok)
                let check = try response.json(PredicateCheck.self)
                #expect(!check.valid && check.column == 27 && check.message?.contains("videoAttributes.colour") == true)
            }
            try await client.execute(uri: "/api/downloads/validate", method: .post, body: .json(#"{"predicate": "peakBitRate <"}"#)) { response throws in
                let check = try response.json(PredicateCheck.self)
                #expect(!check.valid && check.column == 14)
            }
            try await client.execute(uri: "/api/downloads/validate", method: .post, body: .json(#"{"predicate": "averageBitRate > 1"}"#)) { response throws in
                #expect(try response.json(PredicateCheck.self).valid)
            }
        }
    }

    @Test func badAddressesAndUnknownDownloadsAreClearErrors() async throws {
        let fixture = try await Fixture()
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/downloads/inspect", method: .post, body: .json(#"{"url": "not a url"}"#)) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage == "“not a url” is not an http:// or https:// address.")
            }
            try await client.execute(uri: "/api/downloads", method: .post, body: .json(#"{"url": "file:///etc/passwd"}"#)) { response throws in
                #expect(response.status == .badRequest)
            }
            for (uri, method) in [("/api/downloads/nope", HTTPRequest.Method.get), ("/api/downloads/nope/pause", .post), ("/api/downloads/nope", .delete)] {
                try await client.execute(uri: uri, method: method) { response throws in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.errorMessage == "No download nope")
                }
            }
            try await client.execute(uri: "/downloads", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(response.text.contains("downloads.js"))
            }
        }
    }

    @Test func aDownloadUnderWayPlaysFromThePartOnDiskAndWaitsForTheRest() async throws {
        let fixture = try await Fixture()
        let created = try await fixture.service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/master.m3u8", title: "Partial"))
        try await eventually("it reports its files") { try await fixture.service.download(created.id).totalFiles == 3 }
        let folder = fixture.service.store.bundle(for: created.id).appendingPathComponent("video-640x360-600000")
        try await fixture.application().test(.router) { client in
            let prefix = "/api/downloads/\(created.id)/files/video-640x360-600000"
            try await client.execute(uri: "/api/assets/\(created.id)/manifest.json", method: .get) { response throws in
                #expect(response.status == .ok)
                let manifest = try response.json(PlaybackManifest.self)
                #expect(manifest.duration == 4)
                #expect(manifest.video.first?.initialization == "\(prefix)/init-1.mp4")
                #expect(manifest.video.first?.segments.map(\.url) == ["\(prefix)/seg-00001.m4s", "\(prefix)/seg-00002.m4s"])
            }
            try await client.execute(uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "\#(created.id)", "language": "en"}"#)) { response throws in
                #expect(response.status == .created)
                #expect(try response.json(SessionSnapshot.self).metadata.title == "Partial")
            }
            try await client.execute(uri: "\(prefix)/seg-00001.m4s", method: .get) { response throws in
                #expect(response.status == .ok && response.text == "first")
            }
            // The second segment is not there yet: the request waits for it.
            let writer = Task {
                try await Task.sleep(for: .milliseconds(400))  // real time: the request must wait this long
                try Data("second".utf8).write(to: folder.appendingPathComponent("seg-00002.m4s"), options: .atomic)
            }
            let started = ContinuousClock.now
            try await client.execute(uri: "\(prefix)/seg-00002.m4s", method: .get) { response throws in
                #expect(response.status == .ok && response.text == "second")
            }
            #expect(ContinuousClock.now - started >= .milliseconds(350))
            try await writer.value
            // The journal is not served, nor anything outside the bundle.
            try await client.execute(uri: "/api/downloads/\(created.id)/files/.marquee-download/journal.sqlite", method: .get) { response throws in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/downloads/\(created.id)/files/../download.json", method: .get) { response throws in
                #expect(response.status == .notFound)
            }
        }
        // Once cancelled, a missing part is an error at once, not a wait.
        _ = try await fixture.service.cancel(created.id)
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/downloads/\(created.id)/files/video-640x360-600000/seg-00003.m4s", method: .get) { response throws in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/assets/\(created.id)/manifest.json", method: .get) { response throws in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func openAPIDocumentsTheDownloadRoutes() throws {
        let url = MarqueeServer.bundledWebRoot(environment: [:]).appendingPathComponent("openapi.json")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let paths = Set((document?["paths"] as? [String: Any])?.keys.map { $0 } ?? [])
        for path in [
            "/downloads", "/api/downloads", "/api/downloads/inspect", "/api/downloads/validate", "/api/downloads/events",
            "/api/downloads/{id}", "/api/downloads/{id}/pause", "/api/downloads/{id}/resume", "/api/downloads/{id}/cancel",
            "/api/downloads/{id}/retry", "/api/downloads/{id}/files/{path}",
        ] {
            #expect(paths.contains(path), "\(path) is not documented")
        }
    }
}

/// What the real runner downloads for a request: a variant picked in the list is that exact
/// variant, also when the playlist declares the same video twice with different audio.
@Suite("HLS download runner")
struct HLSDownloadRunnerTests {
    let url = URL(string: "https://cdn.example.com/show/master.m3u8")!
    let playlist = try! PlaylistParser.parse(
        """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,CHANNELS="2",URI="a2/index.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud51",NAME="English 5.1",LANGUAGE="en",DEFAULT=YES,CHANNELS="6",URI="a6/index.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=4500000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,AUDIO="aud"
        v1080/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=4900000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,AUDIO="aud51"
        v1080/index.m3u8

        """
    ).get().multivariant!

    func audio(for request: DownloadRequest) throws -> [String] {
        let configuration = try HLSDownloadRunner.configuration(for: request, asset: url, playlist: playlist)
        let (plan, _) = try configuration.plan(for: playlist, url: url)
        return plan.entries.filter { $0.role == .audio }.map(\.url.absoluteString)
    }

    @Test func theChosenVariantIsTheOneDownloadedWhenTwoShareAURI() throws {
        let uri = "https://cdn.example.com/show/v1080/index.m3u8"
        #expect(try audio(for: DownloadRequest(url: url.absoluteString, variant: uri, variantIndex: 0)) == ["https://cdn.example.com/show/a2/index.m3u8"])
        #expect(try audio(for: DownloadRequest(url: url.absoluteString, variant: uri, variantIndex: 1)) == ["https://cdn.example.com/show/a6/index.m3u8"])
        // An index that no longer fits the playlist falls back to the URI.
        #expect(try audio(for: DownloadRequest(url: url.absoluteString, variant: uri, variantIndex: 7)).count == 1)
    }

    @Test func aPredicateChoosesAndABadOneSaysWhere() throws {
        #expect(try audio(for: DownloadRequest(url: url.absoluteString, predicate: "peakBitRate < 4600000")) == ["https://cdn.example.com/show/a2/index.m3u8"])
        #expect(throws: DownloadError.self) {
            try HLSDownloadRunner.configuration(for: DownloadRequest(url: url.absoluteString, predicate: "peakBitRate <"), asset: url, playlist: playlist)
        }
    }
}
