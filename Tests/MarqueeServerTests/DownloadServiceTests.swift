import Downloads
import Foundation
import Hummingbird
import HummingbirdTesting
import MediaTesting
import Synchronization
import Testing

@testable import Library
@testable import MarqueeServer

/// The rules of a download's life, as a value: every transition and refusal.
@Suite("Download lifecycle")
struct DownloadLifecycleTests {
    @Test func aDownloadGoesFromQueuedToFinished() throws {
        var life = DownloadLifecycle()
        #expect(life.state == .queued)
        #expect(try life.handle(.admit).get() == [.startTask])
        #expect(life.state == .downloading && life.hasTask)
        #expect(try life.handle(.pause).get() == [.pauseTask])
        #expect(life.state == .paused)
        #expect(try life.handle(.resume).get() == [.resumeTask])
        #expect(life.state == .downloading)
        #expect(try life.handle(.taskFinished).get() == [.importBundle])
        #expect(life.state == .importing(assetID: nil) && !life.hasTask)
        #expect(try life.handle(.added(assetID: "a1")).get() == [])
        #expect(try life.handle(.imported).get() == [.releaseBundle])
        #expect(life.state == .finished(assetID: "a1"))
    }

    @Test func aFailureSaysWhyAndCanBeRetried() throws {
        var life = DownloadLifecycle()
        _ = life.handle(.admit)
        _ = life.handle(.taskFailed("The server answered HTTP 404"))
        #expect(life.state == .failed(reason: "The server answered HTTP 404"))
        #expect(try life.handle(.retry).get() == [])
        #expect(life.state == .queued && !life.hasTask)
        #expect(try life.handle(.admit).get() == [.startTask])
    }

    @Test func afterARestartRunningDownloadsQueueAgainAndPausedOnesStayPaused() throws {
        var running = DownloadLifecycle(state: .downloading)
        #expect(try running.handle(.recover).get() == [])
        #expect(running.state == .queued)
        var paused = DownloadLifecycle(state: .paused)
        _ = paused.handle(.recover)
        #expect(paused.state == .paused && !paused.hasTask)
        // Resuming with no task in this process queues it for a new one.
        #expect(try paused.handle(.resume).get() == [])
        #expect(paused.state == .queued)
        var importing = DownloadLifecycle(state: .importing(assetID: "a1"))
        #expect(try importing.handle(.recover).get() == [.importBundle])
    }

    @Test("Snapshots offer exactly the actions the lifecycle carries out, in every state")
    func allowedActionsAreWhatTheLifecycleDoes() throws {
        #expect(DownloadLifecycle.allowedActions(in: .queued) == ["pause", "cancel", "delete"])
        #expect(DownloadLifecycle.allowedActions(in: .downloading) == ["pause", "cancel", "delete"])
        #expect(DownloadLifecycle.allowedActions(in: .paused) == ["resume", "cancel", "delete"])
        #expect(DownloadLifecycle.allowedActions(in: .importing(assetID: nil)) == [])
        #expect(DownloadLifecycle.allowedActions(in: .finished(assetID: "a1")) == ["delete"])
        // A failed download can be cancelled (its partial files go) as well as retried.
        #expect(DownloadLifecycle.allowedActions(in: .failed(reason: "gone")) == ["cancel", "retry", "delete"])
        #expect(DownloadLifecycle.allowedActions(in: .cancelled) == ["retry", "delete"])
        // Every action offered is carried out, every other one refused or a no-op.
        let states: [DownloadState] = [.queued, .downloading, .paused, .importing(assetID: "a"), .finished(assetID: "a"), .failed(reason: "x"), .cancelled]
        let events: [(String, DownloadLifecycle.Event)] = [("pause", .pause), ("resume", .resume), ("cancel", .cancel), ("retry", .retry)]
        for state in states {
            for (name, event) in events {
                var life = DownloadLifecycle(state: state, hasTask: true)
                let before = life
                let carriedOut = (try? life.handle(event).get()) != nil && life != before
                #expect(carriedOut == DownloadLifecycle.allowedActions(in: state).contains(name), "\(name) in \(state.name)")
            }
        }
    }

    @Test func refusalsNameTheState() throws {
        var finished = DownloadLifecycle(state: .finished(assetID: "a1"))
        guard case .failure(let refusal) = finished.handle(.pause) else {
            Issue.record("paused a finished download")
            return
        }
        #expect(refusal.message == "The download is finished: only a download in progress can be paused.")
        var importing = DownloadLifecycle(state: .importing(assetID: nil))
        guard case .failure = importing.handle(.cancel) else {
            Issue.record("cancelled an import")
            return
        }
        var queued = DownloadLifecycle()
        guard case .failure = queued.handle(.retry) else {
            Issue.record("retried a queued download")
            return
        }
    }

    @Test func aTaskEndingAfterCancelChangesNothing() throws {
        var life = DownloadLifecycle()
        _ = life.handle(.admit)
        _ = life.handle(.pause)
        #expect(try life.handle(.cancel).get() == [.cancelTask, .removeFiles])
        #expect(try life.handle(.taskFailed("cancelled")).get() == [])
        #expect(try life.handle(.taskFinished).get() == [])
        #expect(life.state == .cancelled)
    }

    @Test func statesRoundTripThroughTheRecordFile() throws {
        for state in [
            DownloadState.queued, .downloading, .paused, .importing(assetID: nil), .importing(assetID: "x"),
            .finished(assetID: "y"), .failed(reason: "why"), .cancelled,
        ] {
            let data = try JSONEncoder().encode(state)
            #expect(try JSONDecoder().decode(DownloadState.self, from: data) == state)
        }
    }
}

// MARK: Test doubles

/// A download the test finishes, fails and watches (pause and resume calls).
final class FakeDownload: RunningDownload {
    struct State {
        var pauses = 0
        var resumes = 0
        var calls: [String] = []
        var outcome: Result<Void, any Error>?
        var waiter: CheckedContinuation<Void, any Error>?
        /// The last progress reported, repeated with the phase a pause or resume gives it.
        var last = DownloadProgress(
            phase: .downloading, completedFiles: 0, totalFiles: 0, bytesWritten: 0, expectedBytes: nil,
            bytesPerSecond: 0, estimatedTimeRemaining: nil, retries: 0)
        /// Whether a pause waits for files in flight (`pausing`) until `settle()`.
        var filesInFlight = false
    }

    let request: DownloadRequest
    let bundle: URL
    let snapshots: AsyncStream<DownloadProgress>
    let progress: AsyncStream<DownloadProgress>.Continuation
    let state = Mutex(State())

    init(request: DownloadRequest, bundle: URL) {
        self.request = request
        self.bundle = bundle
        (snapshots, progress) = AsyncStream<DownloadProgress>.makeStream()
    }

    var pauses: Int { state.withLock { $0.pauses } }
    var resumes: Int { state.withLock { $0.resumes } }

    func run() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { s -> Result<Void, any Error>? in
                    if s.outcome == nil { s.waiter = continuation }
                    return s.outcome
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            end(.failure(CancellationError()))
        }
    }

    func end(_ outcome: Result<Void, any Error>) {
        let waiter = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard s.outcome == nil else { return nil }
            s.outcome = outcome
            defer { s.waiter = nil }
            return s.waiter
        }
        progress.finish()
        waiter?.resume(with: outcome)
    }

    func report(files: Int, of total: Int, bytes: Int64, phase: DownloadProgress.Phase = .downloading) {
        let snapshot = DownloadProgress(
            phase: phase, completedFiles: files, totalFiles: total, bytesWritten: bytes,
            expectedBytes: bytes * Int64(total) / Int64(max(files, 1)), bytesPerSecond: 1000,
            estimatedTimeRemaining: 3, retries: 0)
        state.withLock { $0.last = snapshot }
        progress.yield(snapshot)
    }

    /// Reports the last figures again in `phase`, as the real task does when paused or resumed.
    func report(_ phase: DownloadProgress.Phase) {
        let snapshot = state.withLock { s -> DownloadProgress in
            s.last.phase = phase
            return s.last
        }
        progress.yield(snapshot)
    }

    /// The files in flight at a pause are done: `paused`.
    func settle() {
        state.withLock { $0.filesInFlight = false }
        report(.paused)
    }

    var calls: [String] { state.withLock { $0.calls } }

    func pause() async {
        let inFlight = state.withLock {
            $0.pauses += 1
            $0.calls.append("pause")
            return $0.filesInFlight
        }
        report(inFlight ? .pausing : .paused)
    }
    func resume() async {
        state.withLock {
            $0.resumes += 1
            $0.calls.append("resume")
        }
        report(.downloading)
    }
}

/// Hands out `FakeDownload`s (or fails planning when told to) and remembers them.
final class FakeRunner: DownloadRunner {
    let made = Mutex<[FakeDownload]>([])
    let failures = Mutex<[any Error]>([])

    func prepare(_ request: DownloadRequest, into bundle: URL) async throws -> any RunningDownload {
        if let failure = failures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw failure }
        let download = FakeDownload(request: request, bundle: bundle)
        made.withLock { $0.append(download) }
        return download
    }

    var downloads: [FakeDownload] { made.withLock { $0 } }

    /// The download made for `title`: downloads are prepared concurrently, so their order in
    /// `downloads` is not the order they were enqueued in.
    func download(titled title: String) throws -> FakeDownload {
        try #require(downloads.first { $0.request.title == title })
    }
}

/// A library that reports whatever status the test sets.
final class FakeImporter: DownloadImporting {
    let statuses = Mutex<[String: LibraryImportStatus]>([:])
    let added = Mutex<[URL]>([])
    let detached = Mutex<[String]>([])

    func add(bundle: URL) async throws -> String {
        let id = added.withLock { list in
            list.append(bundle)
            return "asset-\(list.count)"
        }
        statuses.withLock { $0[id] = .working }
        return id
    }

    func status(of assetID: String) async throws -> LibraryImportStatus { statuses.withLock { $0[assetID] ?? .missing } }
    func detachSource(of assetID: String) async throws { detached.withLock { $0.append(assetID) } }
    func bundleFile(_ relativePath: String, of assetID: String) -> URL? { nil }
}

func temporaryDirectory() throws -> URL {
    try ScratchFolder.make("marquee-downloads")
}

// MARK: The service

/// The download service against a runner and a library the test controls: the whole life of
/// a download, failures and retries, the slot limit, and a restart on the same directory.
@Suite("Download service", .serialized)
struct DownloadServiceTests {
    func makeService(_ directory: URL, runner: FakeRunner, importer: FakeImporter = FakeImporter(), maximumActive: Int = 2) -> DownloadService {
        DownloadService(
            store: DownloadRecordStore(directory: directory), runner: runner, importer: importer,
            maximumActive: maximumActive, importPollInterval: .milliseconds(10))
    }

    @Test("A download's snapshot carries its allowed actions, and the service refuses the rest")
    func snapshotsCarryAllowedActions() async throws {
        let runner = FakeRunner()
        let service = makeService(try temporaryDirectory(), runner: runner)
        try await service.start()
        let created = try await service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/a.m3u8"))
        try await eventually("it runs") { runner.downloads.count == 1 }
        #expect(try await service.download(created.id).allowedActions == ["pause", "cancel", "delete"])
        let paused = try await service.pause(created.id)
        #expect(paused.allowedActions == ["resume", "cancel", "delete"])
        await #expect(throws: DownloadServiceError.self) { try await service.retry(created.id) }
    }

    @Test("The inspections kept for predicate previews let the oldest go, one at a time")
    func inspectionsKeptAreTheNewest() async throws {
        let service = makeService(try temporaryDirectory(), runner: FakeRunner())
        for index in 0..<12 { await service.remember([], of: "http://example.test/\(index).m3u8") }
        let kept = await service.inspectedURLs
        #expect(kept == (4..<12).map { "http://example.test/\($0).m3u8" })
        // Inspecting a kept one again makes it the newest.
        await service.remember([], of: "http://example.test/4.m3u8")
        #expect(await service.inspectedURLs.last == "http://example.test/4.m3u8")
        #expect(await service.inspectedURLs.count == DownloadService.inspectedKept)
    }

    func state(_ service: DownloadService, _ id: String) async throws -> String { try await service.download(id).state }

    @Test func queuedDownloadingPausedResumedFinishedAndInTheLibrary() async throws {
        let directory = try temporaryDirectory()
        let runner = FakeRunner()
        let importer = FakeImporter()
        let service = makeService(directory, runner: runner, importer: importer)
        try await service.start()
        let created = try await service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/master.m3u8", variant: "v1/index.m3u8", title: "Flight"))
        #expect(created.title == "Flight")
        try await eventually("the runner got the download") { runner.downloads.count == 1 }
        let fake = runner.downloads[0]
        #expect(fake.request.variant == "v1/index.m3u8")
        #expect(fake.bundle == directory.appendingPathComponent(created.id).appendingPathComponent("bundle", isDirectory: true))
        #expect(try await state(service, created.id) == "downloading")

        fake.report(files: 3, of: 10, bytes: 3000)
        try await eventually("progress is shown") { try await service.download(created.id).completedFiles == 3 }
        let shown = try await service.download(created.id)
        #expect(shown.totalFiles == 10 && shown.bytesWritten == 3000 && abs(shown.progress - 0.3) < 0.001)
        #expect(shown.bytesPerSecond == 1000 && shown.secondsRemaining == 3)
        #expect(shown.playerURL == "/watch/\(created.id)")  // playable while downloading
        #expect(await service.list().diskUsage == 3000)

        // Pausing while files are in flight: "pausing" (their figures may still move) until the
        // task says they are done, then "paused", with figures that stand still.
        fake.state.withLock { $0.filesInFlight = true }
        #expect(try await service.pause(created.id).state == "pausing")
        try await eventually("the task was paused") { fake.pauses == 1 }
        fake.report(files: 4, of: 10, bytes: 4000, phase: .pausing)
        try await eventually("a file in flight finished") { try await service.download(created.id).completedFiles == 4 }
        #expect(try await state(service, created.id) == "pausing")
        fake.settle()
        try await eventually("paused once nothing is in flight") { try await state(service, created.id) == "paused" }
        #expect(try await service.download(created.id).allowedActions == ["resume", "cancel", "delete"])
        #expect(try await service.resume(created.id).state == "downloading")
        try await eventually("the task was resumed") { fake.resumes == 1 }

        // The record on disk follows.
        let (records, _) = try await DownloadRecordStore(directory: directory).load()
        #expect(records.map(\.state) == [.downloading])

        fake.end(.success(()))
        try await eventually("the bundle went to the library") { importer.added.withLock { $0.count } == 1 }
        #expect(try await state(service, created.id) == "importing")
        importer.statuses.withLock { $0["asset-1"] = .ready }
        try await eventually("it is finished") { try await state(service, created.id) == "finished" }
        let finished = try await service.download(created.id)
        #expect(finished.assetID == "asset-1" && finished.playerURL == "/watch/asset-1" && finished.progress == 1)
        try await eventually("the library's copy replaced the download's") { importer.detached.withLock { $0 } == ["asset-1"] }
    }

    @Test func quickPausesAndResumesReachTheTaskInOrder() async throws {
        let runner = FakeRunner()
        let service = makeService(try temporaryDirectory(), runner: runner)
        try await service.start()
        let created = try await service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/a.m3u8"))
        try await eventually("it runs") { runner.downloads.count == 1 }
        for _ in 0..<5 {
            _ = try await service.pause(created.id)
            _ = try await service.resume(created.id)
        }
        _ = try await service.pause(created.id)
        try await eventually("every call arrived") { runner.downloads[0].calls.count == 11 }
        #expect(runner.downloads[0].calls == Array(repeating: ["pause", "resume"], count: 5).flatMap { $0 } + ["pause"])
        try await eventually("paused") { try await state(service, created.id) == "paused" }
    }

    @Test func aFailedDownloadSaysWhyAndARetryStartsItAgain() async throws {
        let runner = FakeRunner()
        runner.failures.withLock { $0 = [DownloadError.http(url: URL(string: "http://127.0.0.1:9/missing.m3u8")!, status: 404)] }
        let service = makeService(try temporaryDirectory(), runner: runner)
        try await service.start()
        let created = try await service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/missing.m3u8"))
        try await eventually("it failed") { try await state(service, created.id) == "failed" }
        #expect(try await service.download(created.id).message == "The server answered HTTP 404 (Not Found) for http://127.0.0.1:9/missing.m3u8.")
        await #expect(throws: DownloadServiceError.self) { try await service.pause(created.id) }
        #expect(try await service.retry(created.id).state != "failed")
        try await eventually("the retry runs") { runner.downloads.count == 1 }
        #expect(try await state(service, created.id) == "downloading")
        // A failure while downloading (not planning) is reported the same way.
        runner.downloads[0].end(.failure(DownloadError.gaveUp(url: URL(string: "http://127.0.0.1:9/s1.m4s")!, attempts: 5, reason: "connection reset")))
        try await eventually("it failed again") { try await state(service, created.id) == "failed" }
        #expect(try await service.download(created.id).message == "Could not fetch http://127.0.0.1:9/s1.m4s: connection reset (gave up after 5 attempts).")
    }

    @Test("A failed download deletes its partial files and reports the bytes really on disk")
    func aFailedDownloadKeepsOnlyWhatARetryUses() async throws {
        let runner = FakeRunner()
        let service = makeService(try temporaryDirectory(), runner: runner)
        try await service.start()
        let created = try await service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/a.m3u8"))
        try await eventually("it runs") { runner.downloads.count == 1 }
        let fake = runner.downloads[0]
        // One finished segment (a retry resumes from it) and one cut off mid-fetch.
        let folder = fake.bundle.appendingPathComponent("video")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(count: 3000).write(to: folder.appendingPathComponent("seg-00001.m4s"))
        try Data(count: 1 << 20).write(to: folder.appendingPathComponent("seg-00002.m4s.part"))
        fake.report(files: 0, of: 10, bytes: 0)
        fake.end(.failure(DownloadError.gaveUp(url: URL(string: "http://127.0.0.1:9/seg-00002.m4s")!, attempts: 6, reason: "stalled")))
        try await eventually("it failed") { try await state(service, created.id) == "failed" }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("seg-00002.m4s.part").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("seg-00001.m4s").path))
        #expect(await service.list().diskUsage == 3000)
        #expect(try await service.download(created.id).bytesWritten == 3000)
    }

    @Test func atMostTwoRunAtOnceAndTheNextStartsWhenOneEnds() async throws {
        let runner = FakeRunner()
        let service = makeService(try temporaryDirectory(), runner: runner)
        try await service.start()
        var ids: [String] = []
        for n in 1...3 { ids.append(try await service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/\(n).m3u8")).id) }
        try await eventually("two run") { runner.downloads.count == 2 }
        #expect(try await state(service, ids[2]) == "queued")
        _ = try await service.cancel(ids[0])
        try await eventually("the third starts") { runner.downloads.count == 3 }
        #expect(try await state(service, ids[0]) == "cancelled")
        #expect(try await state(service, ids[2]) == "downloading")
    }

    @Test func afterARestartDownloadsContinueByThemselvesAndPausedOnesWait() async throws {
        let directory = try temporaryDirectory()
        let first = FakeRunner()
        let before = makeService(directory, runner: first)
        try await before.start()
        let running = try await before.enqueue(DownloadRequest(url: "http://127.0.0.1:9/a.m3u8", title: "Running"))
        let held = try await before.enqueue(DownloadRequest(url: "http://127.0.0.1:9/b.m3u8", title: "Held"))
        try await eventually("both run") { first.downloads.count == 2 }
        try first.download(titled: "Running").report(files: 4, of: 8, bytes: 4000)
        try await eventually("progress seen") { try await before.download(running.id).completedFiles == 4 }
        _ = try await before.pause(held.id)
        _ = try await before.pause(running.id)
        _ = try await before.resume(running.id)  // persisted as downloading

        // A new process on the same directory (the old one's tasks simply stop mattering).
        let second = FakeRunner()
        let after = makeService(directory, runner: second)
        try await after.start()
        try await eventually("the running one started again") { second.downloads.count == 1 }
        #expect(second.downloads[0].request.title == "Running")
        #expect(second.downloads[0].bundle == (try first.download(titled: "Running")).bundle)  // same folder: its journal skips finished files
        #expect(try await state(after, running.id) == "downloading")
        #expect(try await after.download(running.id).bytesWritten == 4000)  // the last figures were kept
        #expect(try await state(after, held.id) == "paused")
        #expect(try await after.resume(held.id).state != "paused")
        try await eventually("the held one runs once resumed") { second.downloads.count == 2 }
        #expect(try await state(after, held.id) == "downloading")
    }

    @Test func aRestartDuringImportFollowsTheSameAssetInsteadOfAddingItTwice() async throws {
        let directory = try temporaryDirectory()
        let runner = FakeRunner()
        let importer = FakeImporter()
        let before = makeService(directory, runner: runner, importer: importer)
        try await before.start()
        let created = try await before.enqueue(DownloadRequest(url: "http://127.0.0.1:9/a.m3u8"))
        try await eventually("it runs") { runner.downloads.count == 1 }
        runner.downloads[0].end(.success(()))
        try await eventually("it is being imported") { try await before.download(created.id).assetID == "asset-1" }
        let record = directory.appendingPathComponent(created.id).appendingPathComponent("download.json")
        try await eventually("the record with the asset id is written") {
            (try? String(contentsOf: record, encoding: .utf8))?.contains("asset-1") == true
        }

        let after = makeService(directory, runner: FakeRunner(), importer: importer)
        try await after.start()
        importer.statuses.withLock { $0["asset-1"] = .ready }
        try await eventually("finished after the restart") { try await state(after, created.id) == "finished" }
        #expect(importer.added.withLock { $0.count } == 1)
    }

    @Test func cancellingAPausedDownloadStopsItsTaskAndRemovesItsFiles() async throws {
        let directory = try temporaryDirectory()
        let runner = FakeRunner()
        let service = makeService(directory, runner: runner)
        try await service.start()
        let created = try await service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/a.m3u8"))
        try await eventually("it runs") { runner.downloads.count == 1 }
        let bundle = runner.downloads[0].bundle
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: bundle.appendingPathComponent("seg-00001.m4s"))
        _ = try await service.pause(created.id)
        #expect(try await service.cancel(created.id).state == "cancelled")
        try await eventually("its files are gone") { !FileManager.default.fileExists(atPath: bundle.path) }
        #expect(try await state(service, created.id) == "cancelled")
        try await service.delete(created.id)
        await #expect(throws: DownloadServiceError.notFound("No download \(created.id)")) { try await service.download(created.id) }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(created.id).path))
    }

    @Test func badRequestsAreRefusedWithTheReason() async throws {
        let service = makeService(try temporaryDirectory(), runner: FakeRunner())
        await #expect(throws: DownloadServiceError.invalid("“ftp://x/y.m3u8” is not an http:// or https:// address.", column: nil)) {
            try await service.enqueue(DownloadRequest(url: "ftp://x/y.m3u8"))
        }
        do {
            _ = try await service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/a.m3u8", predicate: "peakBitRate < 5000000 AND videoAttributes.colour == 1"))
            Issue.record("a bad predicate was accepted")
        } catch {
            guard case .invalid(let message, let column) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(column == 27)
            #expect(message.hasPrefix("The predicate is not valid at column 27: unknown key path 'videoAttributes.colour'"))
        }
        let check = DownloadService.check(predicate: "peakBitRate < 5000000 AND videoAttributes.colour == 1")
        #expect(!check.valid && check.column == 27)
        #expect(DownloadService.check(predicate: "peakBitRate < 5000000").valid)
        #expect(DownloadService.check(predicate: "  ").valid)
    }
}
