import Foundation
import HLS

/// Runs queued ingest jobs one at a time in the background: probe, package, thumbnails.
///
/// Progress and failures are written to the job's row as they happen, so the API and the
/// library page show them; a failure keeps the tool's message as the reason.
public actor IngestWorker {
    let store: any LibraryStore
    let location: LibraryLocation
    let packager: any MediaPackager
    private var loop: Task<Void, Never>?
    private var poll: Task<Void, Never>?
    private var wakeUp: AsyncStream<Void>.Continuation?
    /// How often the queue is checked for jobs another process (`marquee add --queue-only`) queued.
    static let pollInterval: Duration = .seconds(5)
    /// A job that reports no progress for this long is stopped by the watchdog, so one bad
    /// file (a source that hangs a read) never holds up the queue.
    let stallLimit: Duration
    /// The job running now, so it can be cancelled (its asset deleted) or stopped by the watchdog.
    private var running: (assetID: String, task: Task<Void, Never>, lastProgress: ContinuousClock.Instant)?
    /// Why the running job was stopped, for its failure message.
    private var stopReason: String?

    public init(store: any LibraryStore, location: LibraryLocation, packager: any MediaPackager, stallLimit: Duration = .seconds(600)) {
        self.store = store
        self.location = location
        self.packager = packager
        self.stallLimit = stallLimit
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
        let task = Task { await self.run(job) }
        running = (job.assetID, task, ContinuousClock.now)
        let limit = stallLimit
        let watchdog = Task {
            let interval = min(Duration.seconds(5), limit / 4)
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { return }
                if await self.stopIfStalled(limit: limit) { return }
            }
        }
        await task.value
        watchdog.cancel()
        running = nil
    }

    private func stopIfStalled(limit: Duration) -> Bool {
        guard let running, ContinuousClock.now - running.lastProgress > limit else { return false }
        stopReason = "Stopped: no progress for \(limit.components.seconds) s"
        running.task.cancel()
        return true
    }

    /// Starts working through the queue; call `wake()` after queueing a job.
    public func start() async {
        guard loop == nil else { return }
        try? await store.requeueInterruptedJobs()
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
    }

    public func wake() {
        wakeUp?.yield()
    }

    public func stop() {
        poll?.cancel()
        poll = nil
        loop?.cancel()
        wakeUp?.finish()
        loop = nil
    }

    /// Runs every queued job, then returns. Used by the loop and by `marquee add`.
    public func drain() async {
        while !Task.isCancelled, let job = try? await store.claimNextJob() {
            await runWatched(job)
        }
    }

    func run(_ claimed: IngestJob) async {
        var job = claimed
        do {
            guard var asset = try await store.asset(id: job.assetID) else { return }
            asset.status = .processing
            try await store.save(asset)
            guard let sourcePath = asset.sourcePath else { throw LibraryError.unsupportedSource(asset.id) }
            let source = URL(fileURLWithPath: sourcePath)
            // Checked again here, just before anything opens it: the file may have been
            // replaced since it was added (a FIFO would block this worker and every later job).
            let kind = try await BlockingIO.run { SourceFileKind.of(source) }
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
            let bundle = location.bundleDirectory(for: asset.id)
            _ = try? await BlockingIO.run { try FileManager.default.removeItem(at: bundle) }
            if isDirectory {
                job.message = "Importing bundle"
                try await store.save(job)
                let imported = try await BlockingIO.run { try BundleImporter().importBundle(at: source, into: bundle) }
                asset.duration = imported.duration
                asset.width = imported.width
                asset.height = imported.height
                if let title = imported.title { asset.title = title }
                if let duration = imported.duration, duration > 0 {
                    job.message = "Making thumbnails"
                    try await store.save(job)
                    _ = try await packager.decorate(bundle: bundle, duration: duration, artwork: imported.artwork)
                }
            } else {
                try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
                job.message = "Probing"
                try await store.save(job)
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
                try await store.save(job)
                noteProgress()
                let reporter = ProgressReporter(store: store, job: job)
                _ = try await packager.package(source, probe: probe, into: bundle) { fraction in
                    await reporter.report(fraction)
                    await self.noteProgress()
                }
                job = await reporter.job
            }
            let master = bundle.appendingPathComponent(BundleLayout.multivariantPlaylist)
            asset.badges = (try? await BlockingIO.run { try BadgeInspector.badges(forMultivariantAt: master) }) ?? []
            asset.status = .ready
            asset.sourceMissing = false
            try await store.save(asset)
            job.state = .succeeded
            job.progress = 1
            job.message = nil
            try await store.save(job)
        } catch {
            let failure = IngestFailure(error)
            job.state = .failed
            job.message = (error is CancellationError || Task.isCancelled) ? (stopReason ?? "Cancelled") : failure.message
            job.failureReason = failure.reason.rawValue
            let detail = (error as? LibraryError)?.description ?? String(describing: error)
            FileHandle.standardError.write(Data("marquee: ingest of asset \(job.assetID) failed (\(failure.reason.rawValue)): \(detail)\n".utf8))
            // Recorded outside this (possibly cancelled) task: GRDB refuses work for a
            // cancelled task, and a stopped job must still read as failed.
            let store = store, failed = job
            await Task.detached {
                try? await store.save(failed)
                if var asset = try? await store.asset(id: failed.assetID) {
                    asset.status = .failed
                    try? await store.save(asset)
                }
            }.value
        }
    }
}

/// Writes a running job's progress to the store, at most once per whole percent.
actor ProgressReporter {
    let store: any LibraryStore
    private(set) var job: IngestJob

    init(store: any LibraryStore, job: IngestJob) {
        self.store = store
        self.job = job
    }

    func report(_ fraction: Double) async {
        guard Int(fraction * 100) > Int(job.progress * 100) else { return }
        job.progress = fraction
        job.message = fraction < 0.9 ? "Packaging" : "Making thumbnails"
        try? await store.save(job)
    }
}
