import BlockingWork
import Foundation
import HLS
import Logging

/// What the effects of one job's run read and write as they go: the job's row, its asset, and
/// the files the steps hand on to each other.
struct IngestRun: Sendable {
    var job: IngestJob
    var asset: Asset?
    /// The file or folder the steps read: the source path, or the fetched copy of a stored one.
    var source: URL?
    var probe: MediaProbe?
    /// What the bundle importer read from an imported folder.
    var imported: BundleImporter.Imported?
    /// A bundle an earlier attempt packaged from this same source and could not publish (the
    /// bucket did not answer): this run publishes it instead of packaging again.
    var packagedEarlier: PackagedBundle?
    /// The ids of the added subtitle files installed in the bundle (a file added after this,
    /// while the asset was not ready yet, is published once it is).
    var installedSubtitles: [String] = []
}

extension IngestJob {
    /// Done: all of it, nothing more to say.
    mutating func succeed() {
        state = .succeeded
        progress = 1
        message = nil
    }

    /// Failed for good with `reason` (the page translates it) and `message`.
    mutating func fail(_ reason: IngestFailure.Reason, message: String) {
        state = .failed
        self.message = message
        failureReason = reason.rawValue
    }
}

extension IngestWorker {
    /// Runs one claimed job: feeds the lifecycle's events in and carries out the effects it
    /// returns until its run has ended. A step that throws arrives as `failed`.
    func run(_ claimed: IngestJob) async {
        if lifecycle == nil { lifecycle = makeLifecycle(for: claimed) }
        var work = IngestRun(job: claimed)
        var effects = handle(.begin)
        while !effects.isEmpty {
            var next: IngestLifecycle.Event?
            do {
                for effect in effects {
                    if let answer = try await perform(effect, &work) { next = answer }
                }
            } catch {
                next = .failed(IngestTrouble(error, cancelled: Task.isCancelled))
            }
            effects = next.map { handle($0) } ?? []
        }
        // A stored source's fetched copy is of no use once the job has run.
        if work.asset != nil { removeScratchLater(for: claimed.assetID) }
    }

    /// Carries out one effect; the effects that answer return their event.
    private func perform(_ effect: IngestLifecycle.Effect, _ work: inout IngestRun) async throws -> IngestLifecycle.Event? {
        switch effect {
        case .openAsset: return try await openAsset(&work)
        case .announce(let message):
            work.job.message = message
            try await saveJob(work.job)
        case .fetchSource: return try await fetchSource(&work)
        case .inspectSource: return try await inspectSource(work)
        case .markSourceMissing: return try await markSourceMissing(&work)
        case .clearStaging: await clearStaging(&work)
        case .createStaging: try await createStaging(work)
        case .importBundle: return try await importBundle(&work)
        case .decorate: return try await decorate(work)
        case .probe: return try await probe(&work)
        case .package: return try await package(&work)
        case .readBadges: await readBadges(&work)
        case .publish:
            try await installSubtitleFiles(&work)
            try await media.publish(assetID: work.job.assetID)
            if !media.isLocal { await PackagedStaging(bundle: stagingFolder(work)).forget() }
            return .published
        case .confirmLease: return try await confirmLease(work)
        case .recordSuccess: return try await recordSuccess(&work)
        case .requeue(let delay, let message, let attempts):
            var returned = work.job
            returned.message = message
            returned.attempts = attempts
            await requeue(returned, after: delay)
            outcome = "requeued"
        case .recordFailure(let reason, let message):
            work.job.fail(reason, message: message)
            await recordFailure(work.job)
            outcome = "failed"
        case .letGo:
            // Another worker runs this job now: its row and its asset are that worker's.
            log("worker \(workerID) lost the lease on the job of asset \(work.job.assetID); stopped it")
            outcome = "lease-lost"
        case .log(let line): log(line)
        case .stopWork:
            // Only an interruption asks for it, and the worker's `interrupt` carries that out.
            break
        }
        return nil
    }

    private func stagingFolder(_ work: IngestRun) -> URL {
        media.stagingFolder(for: work.job.assetID)
    }

    // MARK: Steps

    /// Loads the asset and marks it processing.
    private func openAsset(_ work: inout IngestRun) async throws -> IngestLifecycle.Event {
        guard var asset = try await store.asset(id: work.job.assetID) else { return .assetGone }
        asset.status = .processing
        try await store.save(asset)
        work.asset = asset
        guard let sourcePath = asset.sourcePath else { return .opened(source: nil) }
        work.source = URL(fileURLWithPath: sourcePath)
        return .opened(source: media.ownsSource(sourcePath) ? .stored(sourcePath) : .local(sourcePath))
    }

    /// Copies a source kept in object storage (an upload) into a scratch folder; what an
    /// earlier, killed attempt fetched is fetched again whole.
    private func fetchSource(_ work: inout IngestRun) async throws -> IngestLifecycle.Event {
        guard let sourcePath = work.asset?.sourcePath else { return .fetched(found: false) }
        let scratch = scratchSources.appendingPathComponent(work.job.assetID)
        _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: scratch) }
        guard let fetched = try await media.fetchSource(sourcePath, into: scratch) else { return .fetched(found: false) }
        work.source = fetched
        return .fetched(found: true)
    }

    /// Checks what the source names just before anything opens it: the file may have been
    /// replaced since it was added (a FIFO would block this worker and every later job).
    private func inspectSource(_ work: IngestRun) async throws -> IngestLifecycle.Event {
        guard let source = work.source else { return .inspected(.missing, path: "") }
        let kind = try await BlockingWork.run { SourceFileKind.of(source) }
        return .inspected(kind, path: source.path)
    }

    private func markSourceMissing(_ work: inout IngestRun) async throws -> IngestLifecycle.Event {
        work.asset?.sourceMissing = true
        if let asset = work.asset { try await store.save(asset) }
        return .sourceMarkedMissing
    }

    /// Removes what an earlier attempt left staged for this asset.
    /// Removes what an earlier attempt left in staging — unless it is a whole bundle packaged
    /// from this same source for a remote store, which this run publishes as it is.
    private func clearStaging(_ work: inout IngestRun) async {
        let bundle = stagingFolder(work)
        let record = PackagedStaging(bundle: bundle)
        if !media.isLocal, let source = work.source, let sourcePath = work.asset?.sourcePath {
            let stored = media.ownsSource(sourcePath)
            if let earlier = await record.bundle(packagedFrom: source, sourcePath: sourcePath, stored: stored) {
                work.packagedEarlier = earlier
                log("ingest of asset \(work.job.assetID): publishing the bundle an earlier attempt packaged")
                return
            }
        }
        await record.forget()
        _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: bundle) }
    }

    private func createStaging(_ work: IngestRun) async throws {
        if work.packagedEarlier != nil { return }
        let bundle = stagingFolder(work)
        try await BlockingWork.run { try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true) }
    }

    private func importBundle(_ work: inout IngestRun) async throws -> IngestLifecycle.Event {
        guard let source = work.source else { throw LibraryError.unsupportedSource(work.job.assetID) }
        let bundle = stagingFolder(work)
        let imported = try await BlockingWork.run { try BundleImporter().importBundle(at: source, into: bundle) }
        work.imported = imported
        work.asset?.adopt(imported)
        return .imported(duration: imported.duration)
    }

    /// Poster and trick-play images for an imported bundle (its download's artwork, when it
    /// brought one, is the poster).
    private func decorate(_ work: IngestRun) async throws -> IngestLifecycle.Event {
        _ = try await packager.decorate(bundle: stagingFolder(work), duration: work.imported?.duration ?? 0, artwork: work.imported?.artwork)
        return .decorated
    }

    private func probe(_ work: inout IngestRun) async throws -> IngestLifecycle.Event {
        guard let source = work.source else { throw LibraryError.unsupportedSource(work.job.assetID) }
        let probe = try await packager.probe(source)
        work.probe = probe
        work.asset?.adopt(probe)
        return .probed
    }

    /// Packages the source; the packager's phases and progress go to the job's row as they come.
    private func package(_ work: inout IngestRun) async throws -> IngestLifecycle.Event {
        guard let source = work.source, let probe = work.probe else { throw LibraryError.unsupportedSource(work.job.assetID) }
        if let earlier = work.packagedEarlier {
            work.asset?.adopt(earlier, probed: probe)
            return .packaged
        }
        noteProgress()
        let reporter = JobProgressWriter(store: store, job: work.job, worker: workerID)
        let packaged = try await packager.package(source, probe: probe, into: stagingFolder(work)) { progress in
            await reporter.report(progress)
            await self.noteProgress()
        }
        work.asset?.adopt(packaged, probed: probe)
        work.job = await reporter.job
        // Kept for a next attempt in case publishing to a remote store fails.
        if !media.isLocal, let sourcePath = work.asset?.sourcePath {
            await PackagedStaging(bundle: stagingFolder(work)).remember(packaged, from: source, sourcePath: sourcePath, stored: media.ownsSource(sourcePath))
        }
        return .packaged
    }

    /// The badges the bundle earns (HD, CC…); none when its playlist does not read.
    private func readBadges(_ work: inout IngestRun) async {
        let master = stagingFolder(work).appendingPathComponent(BundleLayout.multivariantPlaylist)
        work.asset?.badges = (try? await BlockingWork.run { try BadgeInspector.badges(forMultivariantAt: master) }) ?? []
    }

    /// The subtitle files added to the asset, as renditions of the staged bundle (packaging
    /// wrote its playlist afresh); with them the bundle earns the CC badge.
    private func installSubtitleFiles(_ work: inout IngestRun) async throws {
        let files = try await store.subtitleFiles(for: work.job.assetID)
        work.installedSubtitles = files.map(\.id)
        guard !files.isEmpty else { return }
        let (folder, duration) = (stagingFolder(work), work.asset?.duration ?? 0)
        try await BlockingWork.run { try AddedSubtitleRenditions.install(files, duration: duration, into: folder) }
        if work.asset?.badges.contains("CC") == false { work.asset?.badges.append("CC") }
    }

    /// Renews the lease: whether this worker still holds the job.
    private func confirmLease(_ work: IngestRun) async throws -> IngestLifecycle.Event {
        guard let id = work.job.id else { return .leaseConfirmed(false) }
        return .leaseConfirmed(try await store.renewLease(jobID: id, worker: workerID, lease: lease))
    }

    /// The asset is ready (the lease was confirmed just before), then the job succeeded.
    private func recordSuccess(_ work: inout IngestRun) async throws -> IngestLifecycle.Event {
        if var asset = work.asset {
            asset.status = .ready
            asset.sourceMissing = false
            try await store.save(asset)
            work.asset = asset
            await publishSubtitlesAddedMeanwhile(work)
        }
        work.job.succeed()
        try await saveJob(work.job)
        outcome = "succeeded"
        return .recorded
    }

    /// A subtitle file added or removed while the asset was packaged (after the bundle took the
    /// list, before the asset was ready, so the library did not publish it): published now that
    /// the asset is ready. The asset is ready whatever happens here; a failure is logged.
    private func publishSubtitlesAddedMeanwhile(_ work: IngestRun) async {
        let assetID = work.job.assetID
        do {
            guard try await store.subtitleFiles(for: assetID).map(\.id) != work.installedSubtitles else { return }
            try await SubtitlePublishing.publish(assetID: assetID, duration: work.asset?.duration ?? 0, store: store, media: media)
        } catch {
            log("could not publish the subtitle files added to \(assetID) while it was packaged: \(error)")
        }
    }

    // MARK: Settling

    /// Puts `job` back in the queue, outside this (possibly cancelled) task.
    private func requeue(_ job: IngestJob, after delay: Duration) async {
        let (store, worker) = (store, workerID)
        _ = await Task.detached { try? await store.requeue(job, after: delay, leasedBy: worker) }.value
    }

    /// Saves `failed` and marks its asset failed. Recorded outside this (possibly cancelled)
    /// task: GRDB refuses work for a cancelled task, and a stopped job must still read as failed.
    private func recordFailure(_ failed: IngestJob) async {
        let (store, worker) = (store, workerID)
        await Task.detached {
            guard (try? await store.save(failed, leasedBy: worker)) == true else { return }
            if var asset = try? await store.asset(id: failed.assetID) {
                asset.status = .failed
                try? await store.save(asset)
            }
        }.value
    }

    /// Removes the job's scratch folder after the run, whatever became of it.
    private func removeScratchLater(for assetID: String) {
        let scratch = scratchSources.appendingPathComponent(assetID)
        Task.detached { _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: scratch) } }
    }

    private func log(_ line: String) {
        Self.logger.warning("\(line)")
    }
}
