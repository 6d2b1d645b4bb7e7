import Foundation
import Hummingbird
import HummingbirdTesting
import LiveActivities
import MediaTesting
import NIOFoundationCompat
import Playback
import Testing

@testable import Library
@testable import MarqueeServer

/// The built-in activities driven by the server's own systems — the download service, a
/// playback session with a renderer, library ingest jobs — and the REST API over them.
@Suite("Live Activities in the server", .serialized)
struct LiveActivityServerTests {
    struct Harness {
        let library: MediaLibrary
        let host: LiveActivityHost
        let sessions: PlaybackSessions
        let downloads: DownloadService
        let runner: FakeRunner
    }

    func harness() async throws -> Harness {
        let root = try temporaryDirectory()
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent("data")))
        let runner = FakeRunner()
        let downloads = DownloadService(
            store: DownloadRecordStore(directory: root.appendingPathComponent("downloads")), runner: runner,
            importer: FakeImporter(), importPollInterval: .milliseconds(10))
        try await downloads.start()
        let sessions = PlaybackSessions()
        let host = try await LiveActivityHost.start(library: library, downloads: downloads, sessions: sessions, apns: nil)
        return Harness(library: library, host: host, sessions: sessions, downloads: downloads, runner: runner)
    }

    @Test("A download's progress drives its Downloading activity (bytes, percent, ETA, paused); deleting it dismisses the activity")
    func downloading() async throws {
        let h = try await harness()
        defer { Task { await h.host.stop() } }
        let created = try await h.downloads.enqueue(DownloadRequest(url: "http://127.0.0.1:9/master.m3u8", title: "Flight"))
        let id = "download-" + created.id
        try await eventually("the download runs") { h.runner.downloads.count == 1 }
        let running = h.runner.downloads[0]
        running.report(files: 1, of: 4, bytes: 1000)
        try await eventually("the activity shows 25 %") {
            (try? await h.host.center.snapshot(id: id).activity.state(as: DownloadingAttributes.self).percent) == 25
        }
        let snapshot = try await h.host.center.snapshot(id: id)
        #expect(try snapshot.activity.attributes(as: DownloadingAttributes.self).title == "Flight")
        let state = try snapshot.activity.state(as: DownloadingAttributes.self)
        #expect(state.phase == "downloading" && state.bytesWritten == 1000 && state.expectedBytes == 4000 && state.secondsRemaining == 3)
        _ = try await h.downloads.pause(created.id)
        try await eventually("the activity shows paused") {
            (try? await h.host.center.snapshot(id: id).activity.state(as: DownloadingAttributes.self).phase) == "paused"
        }
        _ = try await h.downloads.resume(created.id)
        running.report(files: 3, of: 4, bytes: 3000)
        try await eventually("75 %") { (try? await h.host.center.snapshot(id: id).activity.state(as: DownloadingAttributes.self).percent) == 75 }
        try await h.downloads.delete(created.id)
        try await eventually("a deleted download's activity is dismissed") { (try? await h.host.center.snapshot(id: id).state) == .dismissed }
    }

    @Test("A playback session with a renderer drives Now playing; it goes stale without the renderer and ends with the session")
    func nowPlaying() async throws {
        let h = try await harness()
        defer { Task { await h.host.stop() } }
        let session = PlaybackSession(id: "s1", assetID: "a1", metadata: DisplayMetadata(title: "Clip"))
        await h.sessions.insert(session)
        let (renderer, _) = try #require(await h.sessions.attachRenderer(to: "s1"))
        await h.sessions.report(.ready(duration: 120), to: "s1")
        _ = await h.sessions.apply(.play, to: "s1")
        await h.sessions.report(.playing, to: "s1")
        let id = "playing-s1"
        try await eventually("Now playing is active and playing") {
            guard let s = try? await h.host.center.snapshot(id: id), let state = try? s.activity.state(as: NowPlayingAttributes.self) else { return false }
            return s.state == .active && !state.paused && state.duration == 120
        }
        #expect(try await h.host.center.snapshot(id: id).activity.attributes(as: NowPlayingAttributes.self).title == "Clip")
        _ = await h.sessions.apply(.pause, to: "s1")
        try await eventually("paused") { (try? await h.host.center.snapshot(id: id).activity.state(as: NowPlayingAttributes.self).paused) == true }
        await h.sessions.detachRenderer(renderer, from: "s1")
        try await eventually("stale without a renderer") { (try? await h.host.center.snapshot(id: id).state) == .stale }
        await h.sessions.remove(id: "s1")
        try await eventually("gone with the session") { (try? await h.host.center.snapshot(id: id).state) == .dismissed }
    }

    @Test("At the end of an episode Now playing says what plays next, and ends once the viewer dismisses it")
    func nowPlayingOffersUpNext() async throws {
        let h = try await harness()
        defer { Task { await h.host.stop() } }
        h.sessions.upNextSource.set { _ in UpNextItem(assetID: "e2", title: "S1 · E2", playerURL: "/watch/e2", isReady: true) }
        await h.sessions.insert(PlaybackSession(id: "s3", assetID: "e1", metadata: DisplayMetadata(title: "Show")))
        _ = try #require(await h.sessions.attachRenderer(to: "s3"))
        await h.sessions.report(.ready(duration: 30), to: "s3")
        _ = await h.sessions.apply(.play, to: "s3")
        await h.sessions.report(.playing, to: "s3")
        let id = "playing-s3"
        try await eventually("Now playing is active") { (try? await h.host.center.snapshot(id: id).state) == .active }
        await h.sessions.report(.time(29.9), to: "s3")
        await h.sessions.report(.ended, to: "s3")
        try await eventually("the activity says what is up next") {
            (try? await h.host.center.snapshot(id: id).activity.state(as: NowPlayingAttributes.self).upNextTitle) == "S1 · E2"
        }
        let offered = try await h.host.center.snapshot(id: id)
        #expect(offered.activity.phase != .ended)
        #expect(try offered.activity.state(as: NowPlayingAttributes.self).upNextDate != nil)
        _ = await h.sessions.apply(.upNext(.dismiss), to: "s3")
        try await eventually("dismissed, the activity ends") { (try? await h.host.center.snapshot(id: id).activity.phase) == .ended }
    }

    @Test("A closed player ends its Now playing activity: no renderer within the grace, and the activity is dismissed; a reload keeps it")
    func closedPlayerEndsItsActivity() async throws {
        let root = try temporaryDirectory()
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent("data")))
        let clock = ManualClock(Date())
        let sessions = PlaybackSessions()
        let host = try await LiveActivityHost.start(library: library, downloads: nil, sessions: sessions, apns: nil, clock: clock)
        defer { Task { await host.stop() } }
        await sessions.insert(PlaybackSession(id: "s2", assetID: "a1", metadata: DisplayMetadata(title: "Clip")))
        let (renderer, _) = try #require(await sessions.attachRenderer(to: "s2"))
        await sessions.report(.ready(duration: 120), to: "s2")
        _ = await sessions.apply(.play, to: "s2")
        await sessions.report(.playing, to: "s2")
        let id = "playing-s2"
        try await eventually("Now playing is active") { (try? await host.center.snapshot(id: id).state) == .active }
        // A reload: the renderer goes and comes back within the grace; the activity stays.
        await sessions.detachRenderer(renderer, from: "s2")
        try await eventually("stale without a renderer") { (try? await host.center.snapshot(id: id).state) == .stale }
        let (again, _) = try #require(await sessions.attachRenderer(to: "s2"))
        await sessions.report(.playing, to: "s2")
        try await eventually("active again") { (try? await host.center.snapshot(id: id).state) == .active }
        clock.advance(by: .seconds(60))
        try await Task.sleep(for: .milliseconds(200))  // real time for anything woken to run: proves it does not end
        #expect(try await host.center.snapshot(id: id).activity.phase != .ended)
        // The player closes: nothing comes back, and after the grace the activity is gone.
        await sessions.detachRenderer(again, from: "s2")
        try await eventually("stale without a renderer") { (try? await host.center.snapshot(id: id).state) == .stale }
        try await eventually("the closing timer waits on the clock") { clock.sleeperCount >= 2 }
        clock.advance(by: .seconds(21))
        try await eventually("a closed player's activity is dismissed") { (try? await host.center.snapshot(id: id).state) == .dismissed }
    }

    @Test("Library ingest jobs drive the Ingest activity, which ends when the last job is done")
    func ingest() async throws {
        let h = try await harness()
        defer { Task { await h.host.stop() } }
        let clip = h.library.location.dataDirectory.appendingPathComponent("clip.mp4")
        try await TestClip(size: "160x90", seconds: 1, frameRate: 12, audio: [], metadata: ["title": "Ingested"]).write(to: clip)
        _ = try await h.library.add(paths: [clip.path])
        try await eventually("an Ingest activity counts the job") {
            (try? await h.host.center.snapshot(id: "ingest").activity.state(as: IngestAttributes.self).count) == 1
        }
        #expect(try await h.host.center.snapshot(id: "ingest").activity.state(as: IngestAttributes.self).currentTitle != nil)
        await h.library.worker.drain()
        try await eventually("it ended", within: .seconds(20)) { (try? await h.host.center.snapshot(id: "ingest").state) == .ended }
        let final = try await h.host.center.snapshot(id: "ingest").activity.state(as: IngestAttributes.self)
        #expect(final.count == 0 && final.percent == 100)
    }

    @Test("The REST API starts, updates, refuses a 5 KB state, ends, and says pushes are off")
    func api() async throws {
        let h = try await harness()
        defer { Task { await h.host.stop() } }
        var server = MarqueeServer(library: h.library)
        server.activities = h.host
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            var id = ""
            try await client.execute(
                uri: "/api/activities", method: .post,
                body: ByteBuffer(string: #"{"type":"Delivery","attributes":{"title":"Pizza"},"contentState":{"eta":12},"relevanceScore":5}"#)
            ) { response in
                #expect(response.status == .created)
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as! [String: Any]
                id = json["id"] as! String
                #expect(json["state"] as? String == "active")
            }
            try await client.execute(
                uri: "/api/activities/\(id)/update", method: .post,
                body: ByteBuffer(string: #"{"contentState":{"eta":"\#(String(repeating: "x", count: 5000))"}}"#)
            ) { response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("at most 4096 bytes"))
            }
            try await client.execute(
                uri: "/api/activities/\(id)/update", method: .post,
                body: ByteBuffer(string: #"{"contentState":{"eta":5},"timestamp":"2001-01-01T00:00:00Z"}"#)
            ) { response in
                #expect(String(buffer: response.body).contains(#""outcome":"droppedOlderTimestamp""#))
            }
            try await client.execute(uri: "/api/activities/\(id)/end", method: .post, body: ByteBuffer(string: #"{"dismissalPolicy":"soon"}"#)) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/activities/\(id)/end", method: .post, body: ByteBuffer(string: #"{"dismissalPolicy":"immediate"}"#)) {
                response in
                #expect(String(buffer: response.body).contains(#""state":"dismissed""#))
            }
            try await client.execute(uri: "/api/activities", method: .get) { response in
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as! [String: Any]
                #expect((json["pushes"] as? [String: Any])?["enabled"] as? Bool == false)
            }
            try await client.execute(uri: "/api/activities/channels", method: .post, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .conflict)
            }
            try await client.execute(uri: "/api/activities/nope", method: .get) { response in #expect(response.status == .notFound) }
        }
    }

    @Test func openAPIDocumentsTheActivityRoutes() throws {
        let url = MarqueeServer.bundledWebRoot(environment: [:]).appendingPathComponent("openapi.json")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let paths = Set((document?["paths"] as? [String: Any])?.keys.map { $0 } ?? [])
        for path in [
            "/activities", "/api/activities", "/api/activities/events", "/api/activities/push-status", "/api/activities/premieres",
            "/api/activities/push-to-start-tokens", "/api/activities/push-to-start-tokens/{token}", "/api/activities/push-tokens",
            "/api/activities/push-tokens/{token}", "/api/activities/channels", "/api/activities/channels/{channel}",
            "/api/activities/{id}", "/api/activities/{id}/update", "/api/activities/{id}/end", "/api/activities/{id}/push-tokens",
            "/api/activities/{id}/push-outcomes",
        ] {
            #expect(paths.contains(path), "\(path) is not documented")
        }
    }
}
