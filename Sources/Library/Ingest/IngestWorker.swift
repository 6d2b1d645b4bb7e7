import BlockingWork
import Foundation
import HLS

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
public actor IngestWorker {
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
    static let crashAttempts = 2
    /// A job that reports no progress for this long is stopped by the watchdog, so one bad
    /// file (a source that hangs a read) never holds up the queue.
    let stallLimit: Duration
    /// The job running now, so it can be cancelled (its asset deleted) or stopped by the watchdog.
    private var running: (assetID: String, task: Task<Void, Never>, lastProgress: ContinuousClock.Instant)?
    /// Why the running job was stopped, for its failure message.
    private var stopReason: String?
    /// Set when the heartbeat found the running job's lease taken: write nothing more for it.
    private var leaseLost = false
    /// Set by `handBack()`: the running job goes back to the queue, its attempt not counted.
    private var handingBack = false
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
        handingBack = true
        stopReason = "Handed back"
        running.task.cancel()
        await running.task.value
    }

    /// Stops the job of `assetID` if it is running (its asset is being deleted).
    public func cancel(assetID: String) {
        guard let running, running.assetID == assetID else { return }
        stopReason = "Cancelled"
        running.task.cancel()
    }

    /// The running job moved forward; the watchdog starts counting again.
    func noteProgress() {
        running?.lastProgress = ContinuousClock.now
    }

    /// Runs one job under the watchdog: checked every few seconds, cancelled after
    /// `stallLimit` without progress.
    private func runWatched(_ job: IngestJob) async {
        stopReason = nil
        leaseLost = false
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
        leaseLost = true
        stopReason = "Lost the lease"
        running?.task.cancel()
    }

    /// Saves the job under this worker's lease; throws `LeaseLost` when another worker has it now.
    private func saveJob(_ job: IngestJob) async throws {
        guard try await store.save(job, leasedBy: workerID) else {
            leaseLost = true
            throw LeaseLost()
        }
    }

    /// The heartbeat or a save found that the job's lease belongs to another worker now.
    struct LeaseLost: Error {}

    private func stopIfStalled(limit: Duration) -> Bool {
        guard let running, ContinuousClock.now - running.lastProgress > limit else { return false }
        stopReason = "Stopped: no progress for \(limit.components.seconds) s"
        running.task.cancel()
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

    public func wake() {
        wakeUp?.yield()
    }

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

    func run(_ claimed: IngestJob) async {
        var job = claimed
        do {
            // Each start counts, so a job whose worker keeps dying under it ends; that is an
            // interruption, not a fault of the file.
            guard job.attempts <= maximumAttempts else { throw IngestInterrupted(attempts: job.attempts - 1) }
            guard var asset = try await store.asset(id: job.assetID) else { return }
            asset.status = .processing
            try await store.save(asset)
            guard let sourcePath = asset.sourcePath else { throw LibraryError.unsupportedSource(asset.id) }
            // A source kept in object storage (an upload) is fetched into a scratch folder first.
            let scratch = scratchSources.appendingPathComponent(asset.id)
            defer { Task.detached { _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: scratch) } } }
            // What an earlier, killed attempt fetched is fetched again whole.
            _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: scratch) }
            var fetched: URL?
            if media.ownsSource(sourcePath) {
                job.message = "Fetching the source"
                try await saveJob(job)
                fetched = try await media.fetchSource(sourcePath, into: scratch)
                if fetched == nil { throw LibraryError.sourceNotFound(sourcePath) }
            }
            let source = fetched ?? URL(fileURLWithPath: sourcePath)
            // Checked again here, just before anything opens it: the file may have been
            // replaced since it was added (a FIFO would block this worker and every later job).
            let kind = try await BlockingWork.run { SourceFileKind.of(source) }
            switch kind {
            case .missing:
                asset.sourceMissing = true
                try await store.save(asset)
                throw LibraryError.sourceNotFound(source.path)
            case .other(let what):
                throw SourceFileKind.refusal(source.path, what)
            case .regularFile, .directory:
                break
            }
            let isDirectory = kind == .directory
            let bundle = media.stagingFolder(for: asset.id)
            _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: bundle) }
            if isDirectory {
                job.message = "Importing bundle"
                try await saveJob(job)
                let imported = try await BlockingWork.run { try BundleImporter().importBundle(at: source, into: bundle) }
                asset.duration = imported.duration
                asset.width = imported.width
                asset.height = imported.height
                if let title = imported.title { asset.title = title }
                if let duration = imported.duration, duration > 0 {
                    job.message = "Making thumbnails"
                    try await saveJob(job)
                    _ = try await packager.decorate(bundle: bundle, duration: duration, artwork: imported.artwork)
                }
            } else {
                try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
                job.message = "Probing"
                try await saveJob(job)
                let probe = try await packager.probe(source)
                asset.duration = probe.duration
                asset.width = probe.width
                asset.height = probe.height
                if let title = probe.title, !title.isEmpty { asset.title = title }
                asset.subtitle = probe.subtitle ?? asset.subtitle
                asset.summary = probe.summary ?? asset.summary
                if let episode = probe.episode { asset.episode = episode }
                asset.releaseDate = probe.releaseDate ?? asset.releaseDate
                asset.liveStartDate = probe.liveStartDate ?? asset.liveStartDate
                asset.liveEndDate = probe.liveEndDate ?? asset.liveEndDate
                job.message = "Packaging"
                try await saveJob(job)
                noteProgress()
                let reporter = JobProgressWriter(store: store, job: job, worker: workerID)
                let packaged = try await packager.package(source, probe: probe, into: bundle) { fraction in
                    await reporter.report(fraction)
                    await self.noteProgress()
                }
                // What plays is the truth: a truncated file's header may promise more.
                if let played = packaged.duration, played > 0, abs(played - probe.duration) > 0.5 { asset.duration = played }
                job = await reporter.job
            }
            let master = bundle.appendingPathComponent(BundleLayout.multivariantPlaylist)
            asset.badges = (try? await BlockingWork.run { try BadgeInspector.badges(forMultivariantAt: master) }) ?? []
            if !media.isLocal {
                job.message = "Publishing"
                try await saveJob(job)
            }
            try await media.publish(assetID: asset.id)
            // The last word on the asset belongs to the lease holder only.
            guard let id = job.id, try await store.renewLease(jobID: id, worker: workerID, lease: lease) else { throw LeaseLost() }
            asset.status = .ready
            asset.sourceMissing = false
            try await store.save(asset)
            job.state = .succeeded
            job.progress = 1
            job.message = nil
            try await saveJob(job)
        } catch {
            if leaseLost || error is LeaseLost {
                // Another worker runs this job now: its row and its asset are that worker's.
                FileHandle.standardError.write(Data("marquee: worker \(workerID) lost the lease on the job of asset \(job.assetID); stopped it\n".utf8))
                return
            }
            if handingBack {
                var returned = job
                returned.attempts = max(0, job.attempts - 1)
                returned.message = "Waiting for a worker"
                let (store, worker) = (store, workerID)
                _ = await Task.detached { try? await store.requeue(returned, after: .zero, leasedBy: worker) }.value
                return
            }
            let failure = IngestFailure(error)
            let cancelled = error is CancellationError || Task.isCancelled
            // A crash in the child that does media work: try it once more (a crash can come
            // from the machine, not the file), then fail it with that reason.
            if !cancelled, failure.reason == .packagerCrashed, job.attempts < Self.crashAttempts {
                FileHandle.standardError.write(Data("marquee: ingest of asset \(job.assetID): \(error); trying once more\n".utf8))
                job.message = "Retrying after the media converter crashed"
                let (store, worker, retry) = (store, workerID, job)
                _ = await Task.detached { try? await store.requeue(retry, after: .seconds(1), leasedBy: worker) }.value
                return
            }
            let detail = (error as? LibraryError)?.description ?? String(describing: error)
            // Not about the media (the database or the storage failed): try again later.
            if !cancelled, failure.reason == .unknown, !(error is LibraryError), job.attempts < maximumAttempts {
                let delay = Duration.seconds(min(60, 1 << min(job.attempts, 6)))
                job.message = "Retrying in \(delay.components.seconds) s"
                FileHandle.standardError.write(
                    Data("marquee: ingest of asset \(job.assetID) failed (\(detail)); retrying in \(delay.components.seconds) s\n".utf8))
                let store = store
                let worker = workerID
                let retry = job
                _ = await Task.detached { try? await store.requeue(retry, after: delay, leasedBy: worker) }.value
                return
            }
            job.state = .failed
            job.message = cancelled ? (stopReason ?? "Cancelled") : failure.message
            job.failureReason = failure.reason.rawValue
            FileHandle.standardError.write(Data("marquee: ingest of asset \(job.assetID) failed (\(failure.reason.rawValue)): \(detail)\n".utf8))
            // Recorded outside this (possibly cancelled) task: GRDB refuses work for a
            // cancelled task, and a stopped job must still read as failed.
            let store = store
            let failed = job
            let worker = workerID
            await Task.detached {
                guard (try? await store.save(failed, leasedBy: worker)) == true else { return }
                if var asset = try? await store.asset(id: failed.assetID) {
                    asset.status = .failed
                    try? await store.save(asset)
                }
            }.value
        }
    }
}

/// Writes a running job's progress to the store, at most once per whole percent.
actor JobProgressWriter {
    let store: any LibraryStore
    let worker: String
    private(set) var job: IngestJob

    init(store: any LibraryStore, job: IngestJob, worker: String) {
        self.store = store
        self.job = job
        self.worker = worker
    }

    func report(_ fraction: Double) async {
        guard Int(fraction * 100) > Int(job.progress * 100) else { return }
        job.progress = fraction
        job.message = fraction < 0.9 ? "Packaging" : "Making thumbnails"
        _ = try? await store.save(job, leasedBy: worker)
    }
}
