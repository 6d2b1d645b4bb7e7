import Foundation
import HLS
import MediaTesting
import Testing

@testable import Downloads

/// The download task against a real HTTP server on loopback (the shared `LoopbackHLSServer`
/// over generated files): pause holds new files back, resume finishes, cancellation
/// keeps finished files for the next run, and the Foundation `Progress` ends complete.
@Suite("Asset download task", .serialized)
struct AssetDownloadTaskTests {
    /// A media playlist of `segments` generated segments, served from memory on loopback.
    struct Server {
        let http: LoopbackHLSServer

        init(segments: Int) async throws {
            var files: [String: Data] = [:]
            var playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            for i in 0..<segments {
                files["s\(i).ts"] = Data((0..<(40_000 + i * 997)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) })
                playlist += "#EXTINF:2.0,\ns\(i).ts\n"
            }
            files["media.m3u8"] = Data((playlist + "#EXT-X-ENDLIST\n").utf8)
            http = try await LoopbackHLSServer.start(files: files)
        }

        var playlistURL: URL { http.url("media.m3u8") }

        func stop() {
            let http = http
            Task { try? await http.stop() }
        }
    }

    func plan(_ server: Server) -> DownloadPlan {
        var m = MultivariantPlaylist()
        m.variants = [VariantStream(uri: server.playlistURL.absoluteString)]
        var plan = DownloadPlan(source: server.playlistURL, multivariant: m)
        plan.addVariant(m.variants[0])
        return plan
    }

    func outputFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("marquee-bundle-\(UUID().uuidString)")
    }

    @Test func pauseHoldsNewFilesAndResumeFinishes() async throws {
        let server = try await Server(segments: 30)
        defer { server.stop() }
        let out = outputFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let fetcher = HTTPFetcher(concurrency: 1)
        let task = AssetDownloadTask(
            plan: plan(server), output: out, metadata: BundleMetadataInput(title: "t", sourceURL: server.playlistURL),
            concurrency: 1, fetcher: fetcher)
        await task.pause()
        let running = Task { try await task.run() }
        // Real time must pass: the test proves that a paused task fetches nothing new within it.
        try await Task.sleep(nanoseconds: 700_000_000)
        let folder = out.appendingPathComponent(plan(server).entries[0].folder)
        let whilePaused = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasPrefix("seg-") }.count ?? 0
        #expect(whilePaused <= 1)  // at most the one file already in flight
        try await Task.sleep(nanoseconds: 500_000_000)  // and nothing more in the next half second
        let stillPaused = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasPrefix("seg-") }.count ?? 0
        #expect(stillPaused == whilePaused)
        await task.resume()
        let summary = try await running.value
        #expect(summary.items.first?.bytes == Int64((0..<30).reduce(0) { $0 + 40_000 + $1 * 997 }))
        #expect(task.progress.completedUnitCount == 30 && task.progress.totalUnitCount == 30)
        #expect(task.progress.fractionCompleted == 1)
        try await fetcher.shutdown()
    }

    @Test func cancellationKeepsFinishedFilesForTheNextRun() async throws {
        let server = try await Server(segments: 40)
        defer { server.stop() }
        let out = outputFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let fetcher = HTTPFetcher(concurrency: 2)
        let first = AssetDownloadTask(
            plan: plan(server), output: out, metadata: BundleMetadataInput(title: "t", sourceURL: server.playlistURL),
            concurrency: 2, fetcher: fetcher)
        let running = Task { try await first.run() }
        var seen = 0
        for await snapshot in first.snapshots where snapshot.completedFiles >= 5 {
            seen = snapshot.completedFiles
            running.cancel()
            break
        }
        await #expect(throws: CancellationError.self) { try await running.value }
        #expect(seen >= 5)
        let journal = try await DownloadJournal(url: out.appendingPathComponent(AssetDownloadTask.journalFolder).appendingPathComponent("journal.sqlite"))
            .completedFiles()
        #expect(journal.count >= 5)

        let second = AssetDownloadTask(
            plan: plan(server), output: out, metadata: BundleMetadataInput(title: "t", sourceURL: server.playlistURL),
            concurrency: 2, fetcher: fetcher)
        var firstSnapshot: DownloadProgress?
        let collector = Task { () -> DownloadProgress? in
            for await s in second.snapshots where s.phase == .downloading { return s }
            return nil
        }
        _ = try await second.run()
        firstSnapshot = await collector.value
        #expect((firstSnapshot?.completedFiles ?? 0) >= journal.count)  // resumed, not restarted
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("metadata.json").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(AssetDownloadTask.journalFolder).path))
        try await fetcher.shutdown()
    }
    @Test func playlistsAreWrittenBeforeTheFilesSoTheBundlePlaysWhileDownloading() async throws {
        let server = try await Server(segments: 6)
        defer { server.stop() }
        let out = outputFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let fetcher = HTTPFetcher(concurrency: 1)
        let plan = plan(server)
        let task = AssetDownloadTask(
            plan: plan, output: out, metadata: BundleMetadataInput(title: "t", sourceURL: server.playlistURL),
            concurrency: 1, fetcher: fetcher)
        await task.pause()
        let running = Task { try await task.run() }
        for await snapshot in task.snapshots where snapshot.phase == .downloading { break }
        // Before any segment: the bundle's multivariant playlist and the whole media playlist.
        let media = try String(contentsOf: out.appendingPathComponent("\(plan.entries[0].folder)/index.m3u8"), encoding: .utf8)
        #expect(media.components(separatedBy: "#EXTINF").count - 1 == 6 && media.contains("seg-00006.ts") && media.contains("#EXT-X-ENDLIST"))
        #expect(try String(contentsOf: out.appendingPathComponent("master.m3u8"), encoding: .utf8).contains("\(plan.entries[0].folder)/index.m3u8"))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("metadata.json").path))
        await task.resume()
        _ = try await running.value
        try await fetcher.shutdown()
    }

    @Test func filesComeInTimelineOrderAcrossPlaylistsWithIFramesLast() {
        func jobs(_ folder: String, _ count: Int) -> [SegmentJob] {
            (1...count).map { SegmentJob(path: "\(folder)/\($0)", url: URL(string: "http://h/\(folder)/\($0)")!) }
        }
        let order = AssetDownloadTask.playbackOrder([
            (.video, jobs("v", 4)), (.audio, jobs("a", 4)), (.subtitles, jobs("s", 1)),
            (.iFrames, jobs("i", 2)),
        ]).map(\.path)
        #expect(order == ["v/1", "a/1", "s/1", "v/2", "a/2", "v/3", "a/3", "v/4", "a/4", "i/1", "i/2"])
    }
}
