import Foundation
import Library
import MediaTesting
import PostgreSQLStores
import ServiceTesting
import Testing

@testable import MarqueeServer

/// Two server nodes on one PostgreSQL database, each with its own data directory: a download
/// started through one is listed with its progress by the other, is paused, resumed and
/// cancelled through the other, is deleted through the other; and when its node goes away,
/// the other takes it over and runs it.
@Suite("Downloads shared by the nodes of a cluster")
struct SharedDownloadTests {
    struct Node {
        let service: DownloadService
        let runner: FakeRunner
        let importer: FakeImporter
    }

    func database() async throws -> PostgresConnectionInfo {
        guard case .postgres(let info) = try DatabaseLocation(parsing: try await ThrowawayPostgreSQL.shared.makeDatabase()) else {
            throw CancellationError()
        }
        return info
    }

    func node(_ name: String, on info: PostgresConnectionInfo, lease: Duration = .seconds(15)) async throws -> Node {
        let store = try await PostgreSQLLibraryStore.open(info, timeout: .testStoreOpening)
        let rows = PostgreSQLDownloadRows(sharing: store, node: name, lease: lease)
        let (runner, importer) = (FakeRunner(), FakeImporter())
        let service = DownloadService(
            store: DownloadRecordStore(directory: try temporaryDirectory()), runner: runner, importer: importer,
            importPollInterval: .milliseconds(10), shared: rows)
        try await service.start()
        return Node(service: service, runner: runner, importer: importer)
    }

    func listed(_ node: Node, _ id: String) async -> DownloadSnapshot? {
        await node.service.list().downloads.first { $0.id == id }
    }

    @Test func aDownloadStartedThroughOneNodeIsSeenAndControlledThroughTheOther() async throws {
        let info = try await database()
        let a = try await node("node-a", on: info)
        let b = try await node("node-b", on: info)
        let events = await b.service.events()

        let created = try await a.service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/master.m3u8", title: "Flight"))
        try await eventually("A runs it") { a.runner.downloads.count == 1 }
        let fake = a.runner.downloads[0]
        try await eventually("B lists it as downloading") { await listed(b, created.id)?.state == "downloading" }
        #expect(try await b.service.download(created.id).title == "Flight")

        // Progress made on A reaches B, and B's page hears of it.
        fake.report(files: 4, of: 10, bytes: 4000)
        try await eventually("B shows A's progress", within: .seconds(10)) { await listed(b, created.id)?.completedFiles == 4 }
        let seen = await listed(b, created.id)
        #expect(seen?.bytesWritten == 4000 && seen?.bytesPerSecond == 1000)
        #expect(seen?.playerURL == nil, "its files so far are on A's disk")
        let heard = Task {
            for await event in events {
                if case .changed(let snapshot, _) = event, snapshot.id == created.id, snapshot.completedFiles == 4 { return true }
            }
            return false
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(10))  // bounds a failing wait: the page hears at once
            heard.cancel()
        }
        #expect(await heard.value, "B's page heard of A's progress")
        timeout.cancel()

        // B pauses it: A's task is paused; B answers with the paused download.
        #expect(try await b.service.pause(created.id).state == "paused")
        try await eventually("A's task was paused") { fake.pauses == 1 }
        try await eventually("A says paused once its task has no file in flight") { try await a.service.download(created.id).state == "paused" }
        // A refusal is answered at once by B, without asking A.
        await #expect(throws: DownloadServiceError.self) { try await b.service.retry(created.id) }
        #expect(try await b.service.resume(created.id).state == "downloading")
        try await eventually("A's task was resumed") { fake.resumes == 1 }

        // Cancelled and then deleted through B: gone from both.
        #expect(try await b.service.cancel(created.id).state == "cancelled")
        try await b.service.delete(created.id)
        #expect(await listed(b, created.id) == nil)
        try await eventually("A no longer has it") { await listed(a, created.id) == nil }
        await a.service.leaveCluster()
        await b.service.leaveCluster()
    }

    @Test func aDownloadWhoseNodeWentAwayIsTakenOverByAnother() async throws {
        let info = try await database()
        // A 3 s lease: long enough that a loaded machine does not lapse A's renewals while A is
        // still alive, short enough that the takeover comes soon after A leaves.
        let a = try await node("node-a", on: info, lease: .seconds(3))
        let b = try await node("node-b", on: info, lease: .seconds(3))
        let running = try await a.service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/one.m3u8", title: "Running"))
        let failing = try await a.service.enqueue(DownloadRequest(url: "http://127.0.0.1:9/two.m3u8", title: "Failing"))
        try await eventually("A runs both") { a.runner.downloads.count == 2 }
        // The two are prepared concurrently, so the runner's order is not the enqueue order.
        try a.runner.download(titled: "Failing").end(.failure(URLError(.cannotConnectToHost)))
        try await eventually("B lists the failure") { await listed(b, failing.id)?.state == "failed" }

        // A dies: it stops renewing. After the lease, B runs the unfinished download itself.
        await a.service.leaveCluster()
        try await eventually("B took the running download over") { b.runner.downloads.count == 1 }
        #expect(b.runner.downloads[0].request.url == "http://127.0.0.1:9/one.m3u8")
        #expect(try await b.service.download(running.id).state == "downloading")
        // The failed one stays listed; a retry through B takes it over and runs it on B.
        #expect(try await b.service.download(failing.id).state == "failed")
        #expect(try await b.service.retry(failing.id).state == "downloading")
        try await eventually("B runs the retried download") { b.runner.downloads.count == 2 }
        await b.service.leaveCluster()
    }
}
