import Foundation
import MediaTesting
import Testing

@testable import Library

/// Jobs under restarts: a worker that stops is not a fault of the file, a retry starts
/// afresh, what a killed job fetched is cleaned up, and a stopping worker hands its job back
/// at once instead of letting it wait out the lease.
extension LibraryStoreTests {
    @Test(arguments: StoreKind.allCases)
    func aJobWhoseWorkersKeptStoppingFailsAsInterruptedNotAsBadMedia(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        try await temp.addPlaceholder(named: "good.mp4")
        // Three workers took the job and died under it (their 1 ms leases ran out).
        for worker in ["a", "b", "c"] {
            _ = try await eventuallyValue("worker \(worker) to take the job once the lease before ran out") {
                try await store.claimNextJob(worker: worker, lease: .milliseconds(1))
            }
        }
        let worker = IngestWorker(
            store: store, location: temp.library.location, packager: ScriptedPackager(behaviour: .finish), maximumAttempts: 3)
        try await eventually("the worker to take the job once c's lease ran out, and end it") {
            await worker.drain()
            return try await store.jobs().first?.state != .running
        }
        let job = try #require(try await store.jobs().first)
        #expect(job.state == .failed)
        #expect(job.failureReason == "interrupted", "\(job.failureReason ?? "nil"): a stop is not a media error")
        #expect(job.message == IngestFailure.message(for: .interrupted))

        // A retry starts afresh: the job runs (and here succeeds) instead of failing at once.
        let retried = try await store.retry(jobID: try #require(job.id))
        #expect(retried.attempts == 0)
        #expect(try await store.job(id: job.id!)?.attempts == 0)
        await worker.drain()
        let done = try #require(try await store.job(id: job.id!))
        #expect(done.state == .succeeded, "\(done.message ?? "")")
        #expect(done.attempts == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func aStoppingWorkerHandsItsJobBackAtOnceWithoutCountingTheAttempt(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        try await temp.addPlaceholder(named: "long.mp4")
        let stopping = IngestWorker(
            store: store, location: temp.library.location, packager: ScriptedPackager(behaviour: .hang(after: 0.3)),
            lease: .seconds(600), workerID: "stopping")
        let run = Task { await stopping.drain() }
        try await eventually("the job to be packaging", pollingEvery: .milliseconds(20)) { try await store.jobs().first?.progress == 0.3 }
        await stopping.handBack()
        await run.value
        let returned = try #require(try await store.jobs().first)
        #expect(returned.state == .queued, "handed back, not left running under a 10-minute lease")
        #expect(returned.attempts == 0)

        // Another worker takes it at once (no lease to wait out) and finishes it.
        let next = IngestWorker(store: store, location: temp.library.location, packager: ScriptedPackager(behaviour: .finish), workerID: "next")
        await next.drain()
        let done = try #require(try await store.jobs().first)
        #expect(done.state == .succeeded)
        #expect(done.attempts == 1)
    }
}

@Suite("Ingest scratch space")
struct IngestScratchTests {
    @Test func aStartingWorkerRemovesWhatKilledJobsFetched() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let worker = temp.library.worker
        let leftover = worker.scratchSources.appendingPathComponent("asset-of-a-killed-job")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: true)
        try Data(count: 1 << 20).write(to: leftover.appendingPathComponent("source.mp4"))
        await worker.start()
        await worker.stop()
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
    }
}

/// The samples' ad break is scheduled before its ad is prepared; once the ad is ready the break
/// is served with the ad's length (HLS interstitials without DURATION confuse players).
extension LibraryStoreTests {
    @Test(arguments: StoreKind.allCases)
    func aLibraryAdScheduledBeforeItWasPreparedTakesItsLengthOnceKnown(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let feature = Asset(title: "Feature")
        var ad = Asset(title: "Ad", role: .interstitial)
        _ = try await store.insert(feature, job: false)
        _ = try await store.insert(ad, job: false)
        try await store.schedule(ScheduledInterstitial(assetID: feature.id, interstitialAssetID: ad.id, time: 8))
        // Read (and adopted into authored events) while the ad has no duration yet.
        #expect(try await temp.library.authoredInterstitials(for: feature.id).first?.duration == nil)
        ad.duration = 5
        try await store.save(ad)
        #expect(try await temp.library.authoredInterstitials(for: feature.id).first?.duration == 5)
    }
}
