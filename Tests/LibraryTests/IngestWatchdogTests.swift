import Foundation
import MediaTesting
import Testing

@testable import Library

/// One bad job never stops the queue: a job that makes no progress is stopped by the
/// watchdog, and deleting an asset cancels its running job.
@Suite("Ingest watchdog and cancellation")
struct IngestWatchdogTests {
    func library(stall: Duration) throws -> (MediaLibrary, URL) {
        let folder = try ScratchFolder.make("marquee-watchdog")
        let library = try MediaLibrary(
            location: LibraryLocation(dataDirectory: folder.appendingPathComponent("data")),
            packager: ScriptedPackager(behaviour: .hang(after: nil), hangingPrefix: "hang", duration: 1), ingestStallLimit: stall)
        return (library, folder)
    }

    @Test func aJobWithoutProgressIsStoppedAndTheNextRuns() async throws {
        let (library, folder) = try library(stall: .milliseconds(400))
        for name in ["hang.mp4", "next.mp4"] { try Data(name.utf8).write(to: folder.appendingPathComponent(name)) }
        let added = try await library.add(paths: [folder.appendingPathComponent("hang.mp4").path, folder.appendingPathComponent("next.mp4").path])
        let started = ContinuousClock.now
        await library.worker.drain()
        // A job the watchdog missed would hang for ever (the packager never returns); the bound only
        // tells the two apart. 30 s was crossed once in a full parallel run on two loaded cores.
        #expect(ContinuousClock.now - started < .seconds(120))
        let stuck = try #require(try await library.store.jobs(assetID: added[0].id).first)
        #expect(stuck.state == .failed)
        #expect(stuck.message?.contains("no progress") == true)
        #expect(try await library.store.jobs(assetID: added[1].id).first?.state == .failed)  // it ran
    }

    @Test func deletingAnAssetCancelsItsRunningJob() async throws {
        let (library, folder) = try library(stall: .seconds(600))
        try Data("x".utf8).write(to: folder.appendingPathComponent("hang-forever.mp4"))
        let added = try await library.add(paths: [folder.appendingPathComponent("hang-forever.mp4").path])
        let draining = Task { await library.worker.drain() }
        // Wait until the job is running, then delete its asset for good.
        try await eventually("the job to be running", pollingEvery: .milliseconds(20)) {
            try await library.store.jobs(assetID: added[0].id).first?.state == .running
        }
        try await library.delete(assetID: added[0].id)
        await draining.value  // returns: the job was cancelled, not left hanging
        #expect(try await library.store.asset(id: added[0].id, includingTrashed: true) == nil)
    }
}
