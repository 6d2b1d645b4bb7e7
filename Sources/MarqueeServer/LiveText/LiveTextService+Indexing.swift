import CoreMetrics
import EventFeed
import Foundation
import Library
import Logging
import MediaCore
import VisualAnalysis

/// Indexing for search: each ready asset's sampled frames are read once into `searchIndex`.
/// In a cluster every node and worker runs this loop over one shared index, and an asset is
/// read by the one indexer whose claim on it is granted (`FrameTextIndex.claimIndexing`).
extension LiveTextService {
    /// What the indexing loop does next, one at a time.
    enum IndexingWork: Sendable {
        case changed(String)
        case removed(String)
        /// Look through the library for ready assets not indexed yet (at start, then every
        /// `indexingLease`: an asset another indexer claimed and then died on comes back).
        case sweep
    }

    /// Reads the sampled frames of `assetID` (one per stretch of unchanged picture and text,
    /// `FrameSampling`) into the search index, each hit spanning its stretch. Protected assets
    /// are skipped. Reads whether or not another indexer has claimed it (the loop claims first).
    public func index(assetID: String) async throws {
        let asset = try await analysableAsset(assetID)
        let source = try await frameSource(for: asset, pool: indexDecoding)
        let duration = try await source.load(.duration).seconds
        var entries: [FrameTextStore.IndexedFrame] = []
        for sample in try await sampling.samples(of: source, duration: duration) {
            try Task.checkCancellation()
            let frame: FrameText
            if let hit = try await store.cachedFrame(assetID: asset.id, at: sample.time) {
                frame = hit
            } else {
                frame = try await indexAnalyzer.analyze(source, at: sample.time)
                analysedFrames += 1
                Counter(label: "marquee_live_text_frames_read_total", dimensions: [("purpose", "index")]).increment()
                try await store.cache(frame, assetID: asset.id)
            }
            entries.append(.init(time: frame.frameTime, endTime: sample.end, text: frame.text.text))
        }
        // Protection may have been switched on meanwhile: then keep nothing.
        guard try await library.asset(id: assetID)?.isProtected == false else {
            try await forgetText(of: assetID)
            return
        }
        try await searchIndex.replaceIndex(assetID: asset.id, with: entries)
        // A bucket's whole rendition was fetched for this: free the disk it took.
        if !library.media.isLocal {
            await StoredFrameWindows(media: library.media, dataDirectory: library.location.dataDirectory).forget(assetID: asset.id)
        }
    }

    /// Forgets all text read from `assetID`: this node's cached frames and the search index.
    func forgetText(of assetID: String) async throws {
        try await store.forget(assetID: assetID)
        try await searchIndex.forgetIndex(assetID: assetID)
    }

    /// Indexes every ready asset not indexed yet, then each one that becomes ready, one at a
    /// time in the background, until `stopIndexing`; every `indexingLease` it looks again for
    /// assets left unindexed (claimed by an indexer that stopped). Either way it keeps this
    /// node's caches in step: the frames of an asset protected, trashed or deleted go.
    ///
    /// With `readingFrames` false (a cluster node whose workers index) it reads nothing and
    /// only keeps the caches in step.
    public func startIndexing(readingFrames: Bool = true) {
        guard indexing.isEmpty else { return }
        readsFramesForIndex = readingFrames
        let (work, feed) = AsyncStream.makeStream(of: IndexingWork.self)
        let changes = library.changes.subscribe()
        if readingFrames { feed.yield(.sweep) }
        let forward = Task {
            for await change in changes {
                switch change {
                case .assetChanged(let id): feed.yield(.changed(id))
                case .assetRemoved(let id): feed.yield(.removed(id))
                }
            }
        }
        let interval = indexingLease
        let timer = Task { [weak self] in
            while readingFrames, !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, !Task.isCancelled else { return }
                if await self.queueSweep() { feed.yield(.sweep) }
            }
        }
        let loop = Task { [weak self] in
            for await item in work {
                guard let self, !Task.isCancelled else { return }
                switch item {
                case .changed(let id): await self.indexIfNeeded(id, changed: true)
                case .removed(let id): await self.assetRemoved(id)
                case .sweep: await self.sweep()
                }
            }
        }
        indexing = [forward, timer, loop]
    }

    /// Stops indexing and waits until the asset being read (if any) has been let go, so
    /// another indexer can take it at once.
    public func stopIndexing() async {
        let tasks = indexing
        indexing = []
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// Whether a sweep should be queued now (none is waiting already).
    private func queueSweep() -> Bool {
        defer { sweepQueued = true }
        return !sweepQueued
    }

    /// Indexes the ready, unprotected assets the index does not have yet.
    func sweep() async {
        sweepQueued = false
        guard let assets = try? await library.assets(), let indexed = try? await searchIndex.indexedAssetIDs() else { return }
        for asset in assets where asset.status == .ready && !asset.isProtected && !indexed.contains(asset.id) {
            await indexIfNeeded(asset.id, changed: false)
        }
    }

    /// An asset went to the trash or was deleted: the frames fetched from a bucket for it are
    /// a cache and go at once; its frame text goes once the asset is gone for good (an asset
    /// restored from the trash keeps its index).
    func assetRemoved(_ id: String) async {
        await StoredFrameWindows(media: library.media, dataDirectory: library.location.dataDirectory).forget(assetID: id)
        // Only once the library answers that the asset is gone (not when it could not be asked).
        do {
            guard try await library.asset(id: id, includingTrashed: true) == nil else { return }
            try await forgetText(of: id)
        } catch {
            Self.logger.error("could not forget the frame text of deleted asset \(id): \(error)")
        }
    }

    /// Indexes `id` when it is ready, unprotected and this indexer's claim on it is granted.
    /// A change that made it protected (through any node) empties this node's frame cache of it.
    func indexIfNeeded(_ id: String, changed: Bool) async {
        guard !Task.isCancelled, let asset = try? await library.asset(id: id) else { return }
        if asset.isProtected {
            if changed { try? await store.forget(assetID: id) }
            return
        }
        guard readsFramesForIndex, asset.status == .ready else { return }
        do {
            // Read first: most changes are to assets indexed long ago (a claim is a write).
            guard try await !searchIndex.isIndexed(assetID: id),
                try await searchIndex.claimIndexing(assetID: id, indexer: indexer, lease: indexingLease)
            else { return }
        } catch {
            Self.logger.error("could not claim the indexing of \(asset.title): \(error)")
            return
        }
        await indexClaimed(asset)
    }

    /// Indexes an asset this indexer has claimed, renewing the claim every third of the lease;
    /// stops when the claim is lost, and lets the asset go when stopped.
    private func indexClaimed(_ asset: Library.Asset) async {
        let (id, searchIndex, indexer, lease) = (asset.id, searchIndex, indexer, indexingLease)
        let work = Task { try await self.index(assetID: id) }
        let renewal = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: lease / 3)
                if Task.isCancelled { return }
                // A database hiccup is not a lost claim: the next renewal tries again.
                if (try? await searchIndex.renewIndexingClaim(assetID: id, indexer: indexer, lease: lease)) == false {
                    Self.logger.warning("another indexer took over the frame text of \(asset.title); stopped reading it here")
                    work.cancel()
                    return
                }
            }
        }
        defer { renewal.cancel() }
        do {
            try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch {
            if work.isCancelled || error is CancellationError {
                // Stopped: another indexer (or this one's next sweep) takes the asset at once.
                try? await searchIndex.releaseIndexingClaim(assetID: id, indexer: indexer)
                return
            }
            if error is ServiceUnavailable || (error as? any ServiceUnavailableConvertible)?.unavailable != nil {
                // The database or the bucket did not answer: not the file's fault; a later sweep tries again.
                Self.logger.warning("could not index the frame text of \(asset.title) now: \(error)")
                try? await searchIndex.releaseIndexingClaim(assetID: id, indexer: indexer)
                return
            }
            Self.logger.error("could not index the frame text of \(asset.title): \(error)")
            // Marked indexed (with nothing) so a broken file is not read again at every change.
            try? await searchIndex.replaceIndex(assetID: id, with: [])
        }
    }
}
