public import Foundation
import HLS
import NIOCore

/// Downloads a planned set of media playlists into an offline bundle — the counterpart of
/// `AVAssetDownloadTask`. Validates every playlist before writing anything, fetches files
/// concurrently (bounded), decrypts AES-128 segments, writes each file under a temporary
/// name then renames it, and journals completed files so a killed download resumes without
/// fetching them again. Progress comes as a Foundation `Progress` and as an `AsyncStream`
/// of `DownloadProgress` snapshots; `pause()`, `resume()` and cancelling the running task
/// control it.
public final class AssetDownloadTask: Sendable {
    /// The media playlists to download and the folders they land in.
    public let plan: DownloadPlan
    /// The bundle's folder; the resume journal is kept inside it while the download runs.
    public let output: URL
    /// What `metadata.json` says about the download (title, source, artwork, configuration).
    public let metadata: BundleMetadataInput
    /// How many files are fetched at once (at least 1).
    public let concurrency: Int
    /// Recorded in the journal so the download can be resumed from its folder alone.
    public let journalSettings: [String: String]
    /// Also downloads the assets of HLS interstitials (X-ASSET-URI and X-ASSET-LIST) and points the bundle's
    /// date ranges at the local copies — `downloadsInterstitialAssets`.
    public let downloadsInterstitialAssets: Bool
    /// Files as a Foundation progress (unit count = files; throughput and time remaining set).
    public let progress: Progress
    /// Snapshots, finished when the download ends.
    public let snapshots: AsyncStream<DownloadProgress>

    let fetcher: HTTPFetcher
    let gate = DownloadGate()
    let tracker: DownloadProgressTracker

    /// The journal's folder inside the bundle; removed when the download completes.
    public static let journalFolder = ".marquee-download"

    /// A task that downloads `plan` into `output` with `fetcher`; nothing happens until `run()`.
    /// A `concurrency` below 1 is taken as 1.
    public init(
        plan: DownloadPlan, output: URL, metadata: BundleMetadataInput, concurrency: Int = 8,
        journalSettings: [String: String] = [:], downloadsInterstitialAssets: Bool = false, fetcher: HTTPFetcher
    ) {
        self.journalSettings = journalSettings
        self.downloadsInterstitialAssets = downloadsInterstitialAssets
        self.plan = plan
        self.output = output
        self.metadata = metadata
        self.concurrency = max(1, concurrency)
        self.fetcher = fetcher
        let progress = Progress(totalUnitCount: 0)
        progress.kind = .file
        self.progress = progress
        let (stream, continuation) = AsyncStream<DownloadProgress>.makeStream(bufferingPolicy: .bufferingNewest(64))
        snapshots = stream
        tracker = DownloadProgressTracker(continuation: continuation, progress: progress)
    }

    /// Holds back files not yet started; those already in flight finish. Snapshots say
    /// `pausing` until they have, then `paused`.
    public func pause() async {
        await gate.pause()
        await tracker.pause()
    }

    /// Lets a paused download start files again.
    public func resume() async {
        await gate.resume()
        await tracker.resume()
    }

    /// A retry happened (the fetcher's hook); counted in the snapshots.
    public func noteRetry() async { await tracker.retried() }

    /// The settings a download in `folder` was started with, or nil when there is no
    /// unfinished download there.
    public static func unfinishedSettings(in folder: URL, key: String) async throws -> String? {
        let url = folder.appendingPathComponent(journalFolder).appendingPathComponent("journal.sqlite")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try await DownloadJournal(url: url).setting(key)
    }

    /// Runs the download to completion; throws `DownloadError` or `CancellationError`.
    @discardableResult
    public func run() async throws -> BundleSummary {
        do {
            let summary = try await perform()
            await tracker.finish()
            return summary
        } catch {
            await tracker.fail()
            throw error
        }
    }

    /// Fetches one file into the bundle; returns the bytes written. AES-128 segments are
    /// decrypted whole (they are small); clear files stream to disk and are never held in memory.
    private func fetch(_ job: SegmentJob, keys: [URL: Data]) async throws -> Int64 {
        let target = output.appendingPathComponent(job.path)
        guard let d = job.decryption else {
            return try await fetcher.download(
                job.url, offset: job.offset, length: job.length, maximumBytes: HTTPFetcher.Limit.mediaFile, to: target)
        }
        var (data, _) = try await fetcher.fetch(job.url, offset: job.offset, length: job.length, maximumBytes: HTTPFetcher.Limit.mediaFile)
        guard let key = keys[d.keyURL] else { throw DownloadError.badKey(url: d.keyURL, reason: "key was not fetched") }
        data = try SegmentDecryptor.decrypt(data, key: key, iv: d.iv, url: job.url)
        try await BlockingFileIO.writeAtomically(data, to: target)
        return Int64(data.count)
    }

    private struct PreparedEntry: Sendable {
        var entry: DownloadPlan.Entry
        var jobs: [SegmentJob]
        var playlist: MediaPlaylist
        var duration: Double
        /// The media playlist's final URL (interstitial asset URIs resolve against it).
        var sourceURL: URL
    }

    private enum FetchedPlaylist: Sendable {
        case media(MediaPlaylist, URL)
        case unavailable(String)
    }

    /// Step 1: every planned media playlist, fetched, checked and laid out before anything is
    /// written — video, audio and subtitles first, then I-frame playlists, which may point
    /// into their files. An I-frame playlist that cannot be had is left out of the returned
    /// plan with a warning.
    private func prepareEntries() async throws -> (entries: [PreparedEntry], plan: DownloadPlan, warnings: [String]) {
        let imported = plan.multivariant.importableVariables
        let fetched = try await withThrowingTaskGroup(of: (Int, FetchedPlaylist).self) { group in
            for (index, entry) in plan.entries.enumerated() {
                group.addTask { [fetcher] in
                    do {
                        let (media, finalURL) = try await fetcher.mediaPlaylist(at: entry.url, importedVariables: imported)
                        return (index, .media(media, finalURL))
                    } catch let error as DownloadError where entry.role == .iFrames {
                        // Trick play is an extra: without it the download is still what was asked for.
                        return (index, .unavailable("\(entry.url.absoluteString): I-frame playlist left out: \(error)"))
                    }
                }
            }
            var all: [(Int, FetchedPlaylist)] = []
            for try await item in group { all.append(item) }
            return all.sorted { $0.0 < $1.0 }.map(\.1)
        }
        var prepared: [PreparedEntry] = []
        var warnings: [String] = []
        var kept = plan
        for iFramesPass in [false, true] {
            let reusable = prepared.flatMap(\.jobs)
            for (entry, result) in zip(plan.entries, fetched) where (entry.role == .iFrames) == iFramesPass {
                switch result {
                case .unavailable(let reason):
                    warnings.append(reason)
                    kept.entries.removeAll { $0.folder == entry.folder }
                case .media(let media, let finalURL):
                    if entry.role == .iFrames, media.segments.contains(where: { $0.keys.contains { $0.method != .none } }) {
                        warnings.append("\(finalURL.absoluteString): I-frame playlist left out: encrypted I-frame playlists are not taken offline")
                        kept.entries.removeAll { $0.folder == entry.folder }
                        continue
                    }
                    let (jobs, rewritten) = try MediaLayout.make(
                        folder: entry.folder, playlist: media, url: finalURL,
                        reusing: entry.role == .iFrames ? reusable : [])
                    prepared.append(PreparedEntry(entry: entry, jobs: jobs, playlist: rewritten, duration: media.duration, sourceURL: finalURL))
                }
            }
        }
        return (prepared, kept, warnings)
    }

    private func perform() async throws -> BundleSummary {
        // 1. Every media playlist, fetched and checked before anything is written.
        let (entries, plan, warnings) = try await prepareEntries()
        var prepared = entries

        var interstitials = InterstitialAssets.Prepared()
        if downloadsInterstitialAssets {
            interstitials = try await InterstitialAssets.prepare(playlists: prepared.map { ($0.playlist, $0.sourceURL) }, fetcher: fetcher)
            for i in prepared.indices {
                prepared[i].playlist = InterstitialAssets.rewrite(prepared[i].playlist, sourceURL: prepared[i].sourceURL, prepared: interstitials)
            }
        }

        // 2. The journal, and what earlier runs already finished.
        let journal = try DownloadJournal(url: output.appendingPathComponent(Self.journalFolder).appendingPathComponent("journal.sqlite"))
        for (key, value) in journalSettings { try await journal.setSetting(key, value) }
        let startedAt: String
        if let earlier = try await journal.setting("startedAt") {
            startedAt = earlier
        } else {
            startedAt = ISO8601DateFormatter().string(from: Date())
            try await journal.setSetting("startedAt", startedAt)
        }
        let jobs = Self.playbackOrder(prepared.map { ($0.entry.role, $0.jobs) }) + interstitials.jobs
        let recorded = try await journal.completedFiles()
        var pending: [SegmentJob] = []
        var doneBytes: Int64 = 0
        var doneCount = 0
        for job in jobs {
            if let bytes = recorded[job.path], try await BlockingFileIO.size(of: output.appendingPathComponent(job.path)) == bytes {
                doneBytes += bytes
                doneCount += 1
            } else {
                pending.append(job)
            }
        }
        let estimate = prepared.reduce(Int64(0)) { sum, p in
            if p.entry.role == .iFrames { return sum + p.jobs.reduce(0) { $0 + Int64($1.length ?? 0) } }
            let bps = p.entry.variant?.attributes.averageBandwidth ?? p.entry.variant?.attributes.bandwidth ?? (p.entry.role == .audio ? 128_000 : 1_000)
            return sum + Int64(Double(bps) * p.duration / 8)
        }
        // The bundle's playlists go in first, so a player can play the part already on disk
        // while the rest arrives (the files they name appear, complete, as they finish).
        try await writePlaylists(prepared, plan: plan)

        await tracker.start(totalFiles: jobs.count, alreadyDone: doneCount, alreadyBytes: doneBytes, bandwidthEstimate: estimate)

        // 3. Keys for what is left, fetched once each.
        var keys: [URL: Data] = [:]
        for keyURL in Set(pending.compactMap { $0.decryption?.keyURL }) {
            keys[keyURL] = try await fetcher.fetch(keyURL, maximumBytes: HTTPFetcher.Limit.key).data
        }
        let keyTable = keys

        // 4. The files, `concurrency` at a time.
        try await withThrowingTaskGroup(of: Void.self) { group in
            var iterator = pending.makeIterator()
            func startNext(_ group: inout ThrowingTaskGroup<Void, any Error>) {
                guard let job = iterator.next() else { return }
                group.addTask { [self] in
                    await gate.waitWhilePaused()
                    try Task.checkCancellation()
                    await tracker.fileStarted()
                    let written: Int64
                    do {
                        written = try await fetch(job, keys: keyTable)
                        try await journal.markCompleted(path: job.path, bytes: written)
                    } catch {
                        await tracker.fileAbandoned()
                        throw error
                    }
                    await tracker.fileCompleted(bytes: written)
                }
            }
            for _ in 0..<concurrency { startNext(&group) }
            while try await group.next() != nil { startNext(&group) }
        }

        // 5. Playlists, artwork and metadata; then the journal goes.
        await tracker.phase(.finishing)
        var artworkName: String?
        if let artwork = metadata.artworkURL {
            let data = try await fetcher.fetch(artwork, maximumBytes: HTTPFetcher.Limit.artwork).data
            artworkName = "artwork" + MediaLayout.fileExtension(artwork.path, fallback: ".jpg")
            try await BlockingFileIO.writeAtomically(data, to: output.appendingPathComponent(artworkName!))
        }
        var sizes: [String: Int64] = [:]
        for job in jobs {
            let folder = String(job.path.split(separator: "/").first ?? "")
            sizes[folder, default: 0] += try await BlockingFileIO.size(of: output.appendingPathComponent(job.path)) ?? 0
        }
        for asset in interstitials.assets {
            for (path, text) in asset.playlists.sorted(by: { $0.key < $1.key }) {
                try await BlockingFileIO.writeAtomically(Data(text.utf8), to: output.appendingPathComponent(path))
            }
        }
        for list in interstitials.lists {
            try await BlockingFileIO.writeAtomically(list.document, to: output.appendingPathComponent(list.path))
        }
        try await writePlaylists(prepared, plan: plan)
        var summary = BundleWriter.summary(plan: plan, sizes: sizes, artwork: artworkName)
        summary.warnings = warnings
        summary.interstitials = interstitials.assets.map {
            BundleSummary.Interstitial(folder: $0.folder, sourceURL: $0.sourceURL, bytes: sizes[$0.folder] ?? 0)
        }
        let document = BundleWriter.metadata(
            summary: summary, input: metadata, startedAt: startedAt,
            completedAt: ISO8601DateFormatter().string(from: Date()))
        try await BlockingFileIO.writeAtomically(try document.encoded(), to: output.appendingPathComponent(BundleLayout.metadata))
        try await BlockingFileIO.remove(output.appendingPathComponent(Self.journalFolder))
        return summary
    }

    /// Each media playlist in its folder and the bundle's multivariant playlist.
    private func writePlaylists(_ prepared: [PreparedEntry], plan: DownloadPlan) async throws {
        for p in prepared {
            let text = PlaylistWriter.write(p.playlist)
            try await BlockingFileIO.writeAtomically(Data(text.utf8), to: output.appendingPathComponent(BundleLayout.mediaPlaylist(inFolder: p.entry.folder)))
        }
        try await BlockingFileIO.writeAtomically(
            Data(PlaylistWriter.write(BundleWriter.multivariant(for: plan)).utf8),
            to: output.appendingPathComponent(BundleWriter.playlistName))
    }

    /// The files in the order a player needs them: the playlists' files interleaved by their
    /// place in the timeline (video, audio and subtitles of the first seconds before those of
    /// later ones), I-frame files last — so playback can start while the download runs.
    static func playbackOrder(_ lists: [(role: DownloadPlan.Role, jobs: [SegmentJob])]) -> [SegmentJob] {
        var keyed: [(rank: Int, position: Double, list: Int, job: SegmentJob)] = []
        for (index, list) in lists.enumerated() {
            for (n, job) in list.jobs.enumerated() {
                keyed.append((list.role == .iFrames ? 1 : 0, Double(n) / Double(max(list.jobs.count, 1)), index, job))
            }
        }
        return keyed.sorted { ($0.rank, $0.position, $0.list) < ($1.rank, $1.position, $1.list) }.map(\.job)
    }
}
