import Foundation
import MediaTesting
import Testing

@testable import Library

/// The job queue's leases, run against both stores like the rest of the store suite.
extension LibraryStoreTests {
    @Test(arguments: StoreKind.allCases)
    func aLeaseHoldsAJobUntilItExpiresThenAnotherWorkerTakesItOver(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let a = temp.library.store
        let b = try await temp.reopenedStore()
        _ = try await a.insert(Asset(title: "Leased"), job: true)
        var mine = try #require(try await a.claimNextJob(worker: "A", lease: .seconds(120)))
        let id = try #require(mine.id)
        #expect(try await b.claimNextJob(worker: "B", lease: .seconds(5)) == nil)
        #expect(try await a.renewLease(jobID: id, worker: "A", lease: .seconds(120)))
        #expect(try await !b.renewLease(jobID: id, worker: "B", lease: .seconds(5)))
        // A's last heartbeat leaves its lease a millisecond; then A stops beating.
        #expect(try await a.renewLease(jobID: id, worker: "A", lease: .milliseconds(1)))
        var theirs = try await eventuallyValue("B to take the job once A's lease ran out", pollingEvery: .milliseconds(50)) {
            try await b.claimNextJob(worker: "B", lease: .seconds(120))
        }
        #expect(theirs.id == id && theirs.attempts == 2)
        #expect(try await !a.renewLease(jobID: id, worker: "A", lease: .seconds(1)))
        mine.progress = 0.9
        #expect(try await !a.save(mine, leasedBy: "A"))  // the late worker writes nothing
        theirs.state = .succeeded
        theirs.progress = 1
        #expect(try await b.save(theirs, leasedBy: "B"))
        #expect(try await a.job(id: id)?.state == .succeeded)
        #expect(try await !b.renewLease(jobID: id, worker: "B", lease: .seconds(5)))  // finished: no lease
        #expect(try await a.claimNextJob(worker: "A", lease: .seconds(1)) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func aRequeuedJobWaitsOutItsBackoff(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        _ = try await store.insert(Asset(title: "Flaky"), job: true)
        var job = try #require(try await store.claimNextJob(worker: "A", lease: .seconds(120)))
        job.message = "Retrying in 1 min"
        #expect(try await !store.requeue(job, after: .seconds(60), leasedBy: "B"))
        #expect(try await store.requeue(job, after: .seconds(60), leasedBy: "A"))
        #expect(try await store.job(id: job.id!)?.state == .queued)
        #expect(try await store.claimNextJob(worker: "A", lease: .seconds(120)) == nil)

        // A short backoff runs out, and the job comes back.
        _ = try await store.insert(Asset(title: "Flaky too"), job: true)
        let second = try #require(try await store.claimNextJob(worker: "A", lease: .seconds(120)))
        #expect(try await store.requeue(second, after: .milliseconds(200), leasedBy: "A"))
        let again = try await eventuallyValue("the job to come back after its 200 ms backoff", pollingEvery: .milliseconds(50)) {
            try await store.claimNextJob(worker: "B", lease: .seconds(120))
        }
        #expect(again.id == second.id && again.attempts == 2)
    }
}

/// Two ingest workers on one library: when one stops beating mid-job (its process died or
/// hung), the other finishes the job after the lease, and only one result stands.
@Suite("Ingest workers sharing a queue")
struct WorkerFailoverTests {
    @Test(arguments: StoreKind.allCases)
    func aJobWhoseWorkerStopsFinishesOnTheOtherAfterTheLease(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let asset = try await temp.addPlaceholder(named: "film.mp4")
        let location = temp.library.location
        // Long enough that a heartbeat (every third of it) delayed by a loaded machine never lets it lapse:
        // with 3 s, the second worker took a beating worker's job in one full parallel run.
        // 6 s lapsed once too, in a make test run beside a sanitizer build and an hour of fuzzing
        // (load above 20 on two cores): the first worker's beats every 2 s were starved.
        let lease = Duration.seconds(12)
        let first = IngestWorker(
            store: temp.library.store, location: location, packager: ScriptedPackager(behaviour: .hang(after: 0.1)), lease: lease, workerID: "first")
        let second = IngestWorker(
            store: try await temp.reopenedStore(), location: location, packager: ScriptedPackager(behaviour: .finish), lease: lease, workerID: "second")
        let firstRun = Task { await first.drain() }
        defer { firstRun.cancel() }

        // The first worker is packaging (and beating) ...
        try await eventually("the first worker to start", pollingEvery: .milliseconds(50)) { try await temp.library.store.jobs().first?.progress == 0.1 }
        await second.drain()
        #expect(try await temp.library.store.jobs().first?.state == .running, "the second worker must not take a leased job")
        // Real time must pass: this proves a job outlives two leases while its worker beats, and
        // the store measures leases on its own (the database's) clock.
        try await Task.sleep(for: lease * 2)
        await second.drain()
        #expect(try await temp.library.store.jobs().first?.state == .running, "a beating worker keeps its job")

        // ... then stops beating, as if its process died.
        await first.freeze()
        let start = ContinuousClock.now
        try await eventually("the second worker to finish the job", pollingEvery: .milliseconds(50)) {
            await second.drain()
            return try await temp.library.store.jobs().first?.state == .succeeded
        }
        #expect(ContinuousClock.now - start >= lease / 2)
        let job = try #require(try await temp.library.store.jobs().first)
        #expect(job.attempts == 2)
        #expect(try await temp.library.store.asset(id: asset.id)?.status == .ready)

        // The first worker wakes up and fails its (lost) job: nothing of it is written.
        await first.cancel(assetID: asset.id)
        await firstRun.value
        #expect(try await temp.library.store.jobs().first?.state == .succeeded)
        #expect(try await temp.library.store.asset(id: asset.id)?.status == .ready)
    }
}
