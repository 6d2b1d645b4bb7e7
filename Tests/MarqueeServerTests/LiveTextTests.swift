import Foundation
import Hummingbird
import HummingbirdTesting
import MediaTesting
import Testing
import VisualAnalysis

@testable import Library
@testable import MarqueeServer

/// A library with two ingested clips showing drawn text, and a Live Text service over it.
struct LiveTextFixture: Sendable {
    let library: MediaLibrary
    let service: LiveTextService
    let textID: String
    let secretID: String

    static let shared = Task { try await LiveTextFixture.make() }

    static func make() async throws -> LiveTextFixture {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-livetext-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent("data")))
        let ffmpeg = ProcessRunner(executable: "/usr/bin/ffmpeg")
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        func clip(_ name: String, _ text: String) async throws -> String {
            let path = root.appendingPathComponent(name).path
            try await ffmpeg.run([
                "-hide_banner", "-loglevel", "error", "-y",
                "-f", "lavfi", "-i", "color=c=white:size=640x360:rate=24:duration=3",
                "-vf",
                "drawtext=fontfile=\(font):text='\(text)':fontsize=28:fontcolor=black:x=30:y=100,"
                    + "drawtext=fontfile=\(font):text='Frame %{frame_num}':fontsize=20:fontcolor=black:x=30:y=300",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path,
            ])
            return path
        }
        let text = try await library.add(paths: [try await clip("text.mp4", "Quarterly kumquat report")])[0]
        let secret = try await library.add(paths: [try await clip("secret.mp4", "Confidential zanzibar plans")])[0]
        await library.worker.drain()
        let service = try LiveTextService(library: library, analyzer: FrameTextAnalyzer(recognizer: TextRecognizer(threadCount: 1)))
        return LiveTextFixture(library: library, service: service, textID: text.id, secretID: secret.id)
    }

    func application(sessions: PlaybackSessions = PlaybackSessions()) -> some ApplicationProtocol {
        MarqueeServer(library: library, sessions: sessions, liveText: service).application(host: "127.0.0.1", port: 0)
    }
}

@Suite("Live Text routes: frame text, cache, protection, allowsVideoFrameAnalysis, search", .serialized)
struct LiveTextTests {
    struct FrameTextBody: Decodable {
        struct Line: Decodable {
            var text: String
            var words: [Word]
        }
        struct Word: Decodable {
            var text: String
            var box: Box
            var confidence: Double
        }
        struct Box: Decodable { var x, y, width, height: Int }
        struct Block: Decodable { var lines: [Line] }
        var frameTime: Double
        var rotation: Int
        var text: String
        var blocks: [Block]
        var cached: Bool
    }

    struct SearchBody: Decodable {
        struct Frame: Decodable {
            var assetID: String
            var time: Double
            var text: String
            var playerURL: String
        }
        var assets: [AssetResource]
        var frames: [Frame]
    }

    @Test("The paused frame's text comes back with word boxes, and a second pause on it is a cache hit")
    func frameTextAndCache() async throws {
        let fixture = try await LiveTextFixture.shared.value
        let before = await fixture.service.analysedFrames
        try await fixture.application().test(.router) { client in
            let first = try await client.execute(uri: "/api/assets/\(fixture.textID)/frame-text?time=1.5", method: .get) { response throws in
                #expect(response.status == .ok, "\(response.text)")
                return try response.json(FrameTextBody.self)
            }
            #expect(first.cached == false)
            #expect(first.text.contains("Quarterly kumquat report"), "read \(first.text)")
            #expect(first.text.contains("Frame 36"), "the frame at 1.5 s is frame 36: \(first.text)")
            let word = try #require(first.blocks.flatMap(\.lines).flatMap(\.words).first { $0.text == "kumquat" })
            #expect(word.box.y >= 98 && word.box.y <= 112 && word.box.x > 150 && word.box.x < 200, "box \(word.box)")
            // Another time inside the same frame (24 fps) answers from the cache, without analysing.
            let second = try await client.execute(uri: "/api/assets/\(fixture.textID)/frame-text?time=1.51", method: .get) { response throws in
                try response.json(FrameTextBody.self)
            }
            #expect(second.cached == true)
            #expect(second.text == first.text && second.frameTime == first.frameTime)
        }
        #expect(await fixture.service.analysedFrames == before + 1)
    }

    @Test("A player paused at the very end gets the last frame's text")
    func pausedAtTheEnd() async throws {
        let fixture = try await LiveTextFixture.shared.value
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/assets/\(fixture.textID)/frame-text?time=3", method: .get) { response throws in
                #expect(response.status == .ok, "\(response.text)")
                #expect(try response.json(FrameTextBody.self).text.contains("Frame 71"))
            }
        }
    }

    @Test("Bad times, unknown assets and unknown sessions are clear 4xx errors")
    func badRequests() async throws {
        let fixture = try await LiveTextFixture.shared.value
        try await fixture.application().test(.router) { client in
            for (uri, status) in [
                ("/api/assets/\(fixture.textID)/frame-text", HTTPResponse.Status.badRequest),
                ("/api/assets/\(fixture.textID)/frame-text?time=-1", .badRequest),
                ("/api/assets/\(fixture.textID)/frame-text?time=abc", .badRequest),
                ("/api/assets/nope/frame-text?time=1", .notFound),
                ("/api/assets/\(fixture.textID)/frame-text?time=1&session=nope", .notFound),
                ("/api/search", .badRequest),
                // NUL in a search was a 500 from the index (issue 24, schemathesis); openapi.json's pattern leaves it out.
                ("/api/search?q=a%00b", .badRequest),
            ] {
                try await client.execute(uri: uri, method: .get) { response throws in
                    #expect(response.status == status, "\(uri): \(response.text)")
                    #expect(!response.errorMessage.isEmpty)
                }
            }
        }
    }

    @Test("A protected asset is never analysed: no frame text, no index, nothing in search, and its sessions disallow analysis")
    func protectedAsset() async throws {
        let fixture = try await LiveTextFixture.shared.value
        let before = await fixture.service.analysedFrames
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/assets/\(fixture.secretID)/protected", method: .put, body: .json(#"{"protected": true}"#)) { response throws in
                #expect(response.status == .ok, "\(response.text)")
            }
            try await client.execute(uri: "/api/assets/\(fixture.secretID)/frame-text?time=1", method: .get) { response throws in
                #expect(response.status == .forbidden)
                #expect(response.errorMessage.contains("protected"))
            }
            try await client.execute(uri: "/api/assets/\(fixture.secretID)", method: .get) { response throws in
                #expect(try response.json(AssetResource.self).protected == true)
            }
            try await client.execute(uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "\#(fixture.secretID)"}"#)) { response throws in
                #expect(try response.json(SessionSnapshot.self).allowsVideoFrameAnalysis == false)
            }
        }
        await #expect(throws: LiveTextError.self) { try await fixture.service.index(assetID: fixture.secretID) }
        #expect(await fixture.service.analysedFrames == before)
        #expect(try await fixture.service.store.cachedFrameCount(assetID: fixture.secretID) == 0)
        #expect(try await fixture.service.store.search("zanzibar").isEmpty)
    }

    @Test("allowsVideoFrameAnalysis: on by default, off per session and from the player settings, and then no analysis")
    func allowsVideoFrameAnalysis() async throws {
        let fixture = try await LiveTextFixture.shared.value
        let before = await fixture.service.analysedFrames
        try await fixture.application().test(.router) { client in
            let on = try await client.execute(uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "\#(fixture.textID)"}"#)) { response throws in
                try response.json(SessionSnapshot.self)
            }
            #expect(on.allowsVideoFrameAnalysis == true)
            let off = try await client.execute(
                uri: "/api/sessions", method: .post,
                body: .json(#"{"assetID": "\#(fixture.textID)", "allowsVideoFrameAnalysis": false}"#)
            ) { response throws in
                try response.json(SessionSnapshot.self)
            }
            #expect(off.allowsVideoFrameAnalysis == false)
            try await client.execute(uri: "/api/assets/\(fixture.textID)/frame-text?time=2.2&session=\(off.id)", method: .get) { response throws in
                #expect(response.status == .forbidden)
                #expect(response.errorMessage.contains("allowsVideoFrameAnalysis"))
            }
            try await client.execute(
                uri: "/api/settings/player", method: .put,
                body: .json(#"{"allowsVideoFrameAnalysis": false, "videoFrameAnalysisDelay": 0.8}"#)
            ) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/sessions", method: .post, body: .json(#"{"assetID": "\#(fixture.textID)"}"#)) { response throws in
                #expect(try response.json(SessionSnapshot.self).allowsVideoFrameAnalysis == false)
            }
            try await client.execute(uri: "/api/settings/player", method: .put, body: .json(#"{"videoFrameAnalysisDelay": 20}"#)) { response throws in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/settings/player", method: .put, body: .json(#"{}"#)) { response throws in
                #expect(response.status == .ok)
            }
        }
        #expect(await fixture.service.analysedFrames == before)
    }

    @Test("A request whose frame is no longer on screen is dropped")
    func staleRequestsAreDropped() async throws {
        let fixture = try await LiveTextFixture.shared.value
        let before = await fixture.service.analysedFrames
        // The player started playing again while the frame was being read.
        await #expect(throws: LiveTextError.self) {
            _ = try await fixture.service.frameText(assetID: fixture.textID, at: 0.3, sessionID: "viewer", isStale: { true })
        }
        #expect(try await fixture.service.store.cachedFrame(assetID: fixture.textID, at: 0.3) == nil)
        // A newer request of the same player replaces an older one still running.
        let older = Task { try await fixture.service.frameText(assetID: fixture.textID, at: 0.6, sessionID: "viewer") }
        // Once the older one is reading (a task may start late on a busy machine).
        try await eventually("the older request to be reading", pollingEvery: .milliseconds(5)) {
            await fixture.service.isReading(sessionID: "viewer")
        }
        let newer = try await fixture.service.frameText(assetID: fixture.textID, at: 2.5, sessionID: "viewer")
        #expect(newer.frame.text.text.contains("Frame 60"))
        await #expect(throws: LiveTextError.self) { _ = try await older.value }
        #expect(await fixture.service.analysedFrames == before + 1)
    }

    @Test("Search finds assets by title and by the text inside their frames, with times that open the player there")
    func search() async throws {
        let fixture = try await LiveTextFixture.shared.value
        try await fixture.service.index(assetID: fixture.textID)
        try await fixture.application().test(.router) { client in
            let hits = try await client.execute(uri: "/api/search?q=kumquat", method: .get) { response throws in
                #expect(response.status == .ok, "\(response.text)")
                return try response.json(SearchBody.self)
            }
            #expect(hits.assets.isEmpty)  // the word is only inside the frames
            let hit = try #require(hits.frames.first)
            #expect(hit.assetID == fixture.textID && hit.text.contains("Quarterly kumquat report"))
            #expect(hit.time >= 0 && hit.time < 3)
            #expect(hit.playerURL.hasPrefix("/watch/\(fixture.textID)?t=") && hit.playerURL.hasSuffix("&autoplay=0"))
            let byTitle = try await client.execute(uri: "/api/search?q=text", method: .get) { response throws in
                try response.json(SearchBody.self)
            }
            #expect(byTitle.assets.map(\.id).contains(fixture.textID))
        }
    }

    @Test("An asset deleted for good leaves nothing in the frame-text index or the frames cache; one in the trash keeps its index")
    func deletedAssetsLeaveNoFrameText() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-livetext-delete-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent("data")))
        let path = root.appendingPathComponent("gone.mp4").path
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run([
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=white:size=640x360:rate=24:duration=2",
            "-vf", "drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:text='Vanishing persimmon':fontsize=28:fontcolor=black:x=30:y=100",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path,
        ])
        let asset = try await library.add(paths: [path])[0]
        await library.worker.drain()
        let service = try LiveTextService(library: library, analyzer: FrameTextAnalyzer(recognizer: TextRecognizer(threadCount: 1)))
        // A frames cache as a bucket-backed node keeps one (object-storage/frames/ASSET).
        let frames = root.appendingPathComponent("data/object-storage/frames/\(asset.id)")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        try Data("frames".utf8).write(to: frames.appendingPathComponent("video-1-all.mp4"))
        await service.startIndexing()
        defer { Task { await service.stopIndexing() } }
        try await eventually("the asset is indexed", pollingEvery: .milliseconds(100)) { try await service.store.isIndexed(assetID: asset.id) }
        #expect(try await service.store.search("persimmon").contains { $0.assetID == asset.id })

        try await library.trash(assetID: asset.id)
        try await eventually("the frames cache is gone", pollingEvery: .milliseconds(100)) { !FileManager.default.fileExists(atPath: frames.path) }
        #expect(try await service.store.isIndexed(assetID: asset.id), "an asset in the trash may come back: its index stays")

        try await library.purgeTrash(before: Date().addingTimeInterval(60))
        try await eventually("the index forgets the asset", pollingEvery: .milliseconds(100)) { try await !service.store.isIndexed(assetID: asset.id) }
        #expect(try await service.store.search("persimmon").isEmpty)
    }
}
