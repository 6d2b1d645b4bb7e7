import BlockingWork
import CoreMetrics
import EventFeed
import Foundation
import Logging

/// Runs queued ingest jobs one at a time in the background: probe, package, thumbnails.
///
/// Progress and failures are written to the job's row as they happen, so the API and the
/// library page show them; a failure keeps the tool's message as the reason.
///
/// Several workers (in one process or on several machines sharing a PostgreSQL library)
/// share the queue safely: a worker claims a job under a lease that its heartbeat extends
/// every third of the lease; if the worker dies, the lease expires and another worker takes
/// the job over. A worker that finds its lease lost stops the job and writes nothing more.
/// A job that fails for a reason other than its media (the database or the storage went
/// away) is retried with backoff, up to `maximumAttempts` times.
///
/// The steps of a job and what becomes of one that stops are `IngestLifecycle`'s rules (with
/// `IngestRetryPolicy`); this actor runs the queue, the lease and the watchdog, and carries
/// out the lifecycle's effects (`IngestWorker+Effects.swift`).
public actor IngestWorker {
    /// Where a worker reports a failed, retried or abandoned job (the server's log).
    static let logger = Logger(label: "marquee.ingest")

    let store: any LibraryStore
    let location: LibraryLocation
    let packager: any BundlePackaging
    /// Where packaged bundles are published (staged in a local folder first).
    let media: any MediaStore
    private var loop: Task<Void, Never>?
    private var poll: Task<Void, Never>?
    private var wakeUp: AsyncStream<Void>.Continuation?
    /// How often the queue is checked for jobs another process (`marquee add --queue-only`) queued.
    static let pollInterval: Duration = .seconds(5)
    /// How many times a job whose media work crashed is started before it fails for good.
    static let crashAttempts = IngestRetryPolicy.crashAttempts
    /// A job that reports no progress for this long is stopped by the watchdog, so one bad
    /// file (a source that hangs a read) never holds up the queue.
    let stallLimit: Duration
    /// The job running now, so it can be cancelled (its asset deleted) or stopped by the watchdog.
    private var running: (assetID: String, task: Task<Void, Never>, lastProgress: ContinuousClock.Instant)?
    /// The running job's steps and what stopped it; nil between jobs.
    var lifecycle: IngestLifecycle?
    /// How the running job's run settled (`succeeded`, `failed`, `requeued`, `lease-lost`), for
    /// its log line and the metrics; nil until it has.
    var outcome: String?
    /// Set by `handBack()`: this worker takes no more jobs.
    private var handingOver = false
    /// Names this worker in the job rows it leases ("host:pid:random").
    public nonisolated let workerID: String
    /// How long a claim holds without a heartbeat; a dead worker's job returns to the queue after this.
    public nonisolated let lease: Duration
    /// How many times a job is started before it is failed for good (each lease expiry counts).
    public nonisolated let maximumAttempts: Int
    private var changeWatch: Task<Void, Never>?
    private var heartbeat: Task<Void, Never>?

    /// The name a worker in this process gets by default.
    public static func defaultWorkerID() -> String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(6).lowercased())"
    }

    /// A worker for the queue in `store`, packaging with `packager` and publishing to `media`
    /// (the library's folder when nil). A job making no progress for `stallLimit` is stopped;
    /// a claim holds for `lease` without a heartbeat.
    public init(
        store: any LibraryStore, location: LibraryLocation, packager: any BundlePackaging, stallLimit: Duration = .seconds(600),
        lease: Duration = .seconds(30), maximumAttempts: Int = 3, workerID: String = IngestWorker.defaultWorkerID(),
        media: (any MediaStore)? = nil
    ) {
        self.store = store
        self.location = location
        self.packager = packager
        self.media = media ?? FolderMediaStore(location: location)
        self.stallLimit = stallLimit
        self.lease = lease
        self.maximumAttempts = maximumAttempts
        self.workerID = workerID
    }

    /// Where sources kept in object storage are fetched to while their job runs.
    nonisolated var scratchSources: URL { location.dataDirectory.appendingPathComponent("scratch/sources") }

    /// Stops taking jobs and hands the running one back to the queue at once, without
    /// counting the attempt, so another worker (or this one after a restart) starts it
    /// afresh instead of waiting out the lease. For SIGTERM.
    public func handBack() async {
        stop()
        handingOver = true
        guard let running else { return }
        interrupt(.handBack)
        await running.task.value
    }

    /// Stops the job of `assetID` if it is running (its asset is being deleted).
    public func cancel(assetID: String) {
        guard let running, running.assetID == assetID else { return }
        interrupt(.cancelled)
    }

    /// Tells the running job's lifecycle what stopped it, and cancels its task.
    private func interrupt(_ why: IngestInterruption) {
        guard let running else { return }
        var effects: [IngestLifecycle.Effect] = [.stopWork]
        if var lifecycle {
            effects = lifecycle.handle(.interrupt(why))
            self.lifecycle = lifecycle
        }
        if effects.contains(.stopWork) { running.task.cancel() }
    }

    /// A fresh lifecycle for `job` under this worker's rules.
    func makeLifecycle(for job: IngestJob) -> IngestLifecycle {
        IngestLifecycle(
            assetID: job.assetID, attempts: job.attempts, policy: IngestRetryPolicy(maximumAttempts: maximumAttempts),
            mediaIsLocal: media.isLocal)
    }

    /// Applies `event` to the running job's lifecycle and returns the effects to carry out.
    func handle(_ event: IngestLifecycle.Event) -> [IngestLifecycle.Effect] {
        guard var lifecycle else { return [] }
        let effects = lifecycle.handle(event)
        self.lifecycle = lifecycle
        return effects
    }

    /// The running job moved forward; the watchdog starts counting again.
    func noteProgress() {
        running?.lastProgress = ContinuousClock.now
    }

    /// Runs one job under the watchdog: checked every few seconds, cancelled after
    /// `stallLimit` without progress.
    private func runWatched(_ job: IngestJob) async {
        // Before the task exists, so an interruption that comes at once is remembered.
        lifecycle = makeLifecycle(for: job)
        outcome = nil
        let started = ContinuousClock.now
        let metadata: Logger.Metadata = [
            "job": .stringConvertible(job.id ?? 0), "asset": .string(job.assetID), "attempt": .stringConvertible(job.attempts),
            "worker": .string(workerID),
        ]
        Self.logger.info("took the job of asset \(job.assetID)", metadata: metadata)
        let task = Task { await self.run(job) }
        running = (job.assetID, task, ContinuousClock.now)
        let limit = stallLimit
        let watchdog = Task {
            let interval = min(Duration.seconds(5), limit / 4)
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { return }
                if self.stopIfStalled(limit: limit) { return }
            }
        }
        heartbeat = Task { await self.beat(jobID: job.id) }
        await task.value
        watchdog.cancel()
        heartbeat?.cancel()
        heartbeat = nil
        running = nil
        lifecycle = nil
        Self.record(outcome: outcome ?? "stopped", after: started.duration(to: .now), metadata: metadata)
    }

    /// One log line and the metrics for a job's run that ended with `outcome`.
    static func record(outcome: String, after duration: Duration, metadata: Logger.Metadata) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        var metadata = metadata
        metadata["outcome"] = .string(outcome)
        metadata["seconds"] = .string(String(format: "%.2f", seconds))
        let line: Logger.Message = "job of asset \(metadata["asset"] ?? "?") \(outcome) after \(String(format: "%.1f", seconds)) s"
        if outcome == "succeeded" { logger.info(line, metadata: metadata) } else { logger.warning(line, metadata: metadata) }
        Counter(label: "marquee_job_outcomes_total", dimensions: [("outcome", outcome)]).increment()
        CoreMetrics.Timer(label: "marquee_job_duration_seconds", dimensions: [("outcome", outcome)])
            .recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Extends the lease every third of it while the job runs; stops the job when the lease is lost.
    private func beat(jobID: Int64?) async {
        guard let jobID else { return }
        let (store, worker, lease) = (store, workerID, lease)
        while !Task.isCancelled {
            try? await Task.sleep(for: lease / 3)
            if Task.isCancelled { return }
            // A database hiccup is not a lost lease: try again next beat (the lease has two more).
            guard let held = try? await store.renewLease(jobID: jobID, worker: worker, lease: lease) else { continue }
            if !held {
                loseLease()
                return
            }
        }
    }

    /// Stops the heartbeat and leaves the job's row as it is, as a worker whose process hung
    /// or died would: its lease runs out and another worker takes the job. For tests.
    func freeze() {
        heartbeat?.cancel()
        heartbeat = nil
    }

    private func loseLease() {
        interrupt(.leaseLost)
    }

    /// Saves the job under this worker's lease; throws `LeaseLost` when another worker has it now.
    func saveJob(_ job: IngestJob) async throws {
        guard try await store.save(job, leasedBy: workerID) else { throw LeaseLost() }
    }

    /// The heartbeat or a save found that the job's lease belongs to another worker now.
    struct LeaseLost: Error {}

    private func stopIfStalled(limit: Duration) -> Bool {
        guard let running, ContinuousClock.now - running.lastProgress > limit else { return false }
        interrupt(.stalled(limit: limit))
        return true
    }

    /// Starts working through the queue; call `wake()` after queueing a job.
    public func start() async {
        guard loop == nil else { return }
        // What a killed worker of this data directory left staged or fetched is of no use now.
        await media.discardStaging()
        let scratch = scratchSources
        _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: scratch) }
        // No requeueing at start: a job left running by a process that died comes back when
        // its lease expires, and one that another live worker runs keeps going.
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakeUp = continuation
        continuation.yield()
        loop = Task { [weak self] in
            for await _ in signals {
                guard let self else { return }
                await self.drain()
            }
        }
        poll = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.pollInterval)
                continuation.yield()
            }
        }
        // Any library change may be a new job (on PostgreSQL, from another node too: NOTIFY
        // wakes idle workers at once); an idle worker looks, a busy one looks when it is done.
        let changes = store.changes.subscribe(buffer: 1)
        changeWatch = Task {
            for await _ in changes { continuation.yield() }
        }
    }

    /// Looks at the queue now (a job was queued).
    public func wake() {
        wakeUp?.yield()
    }

    /// Stops taking jobs; the running one, if any, carries on to its end.
    public func stop() {
        changeWatch?.cancel()
        changeWatch = nil
        poll?.cancel()
        poll = nil
        loop?.cancel()
        wakeUp?.finish()
        loop = nil
    }

    /// Runs every queued job, then returns. Used by the loop and by `marquee add`.
    public func drain() async {
        while !Task.isCancelled, !handingOver, let job = try? await store.claimNextJob(worker: workerID, lease: lease) {
            await runWatched(job)
        }
    }
}
