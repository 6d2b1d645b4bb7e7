import Downloads
import EventFeed
import Foundation
import HLS
public import Library

/// Downloads inside the server: a queue of HLS downloads run with the `Downloads` module
/// (at most `maximumActive` at once), paused, resumed, cancelled, retried and deleted from
/// the API, their records kept in the data directory so they continue after a restart — the
/// resume journal in each bundle skips the files already finished — and each finished bundle
/// added to the library. Every change is published to subscribers (the page's event stream).
///
/// The rules live in `DownloadLifecycle`; this actor carries out the effects it names. The
/// network and the library are behind `DownloadRunner` and `DownloadImporting`.
public actor DownloadService {
    /// Where the records live on disk, one folder per download (also each download's bundle).
    public nonisolated let store: DownloadRecordStore
    let runner: any DownloadRunner
    let importer: any DownloadImporting
    let inspector: StreamInspector
    /// How many downloads run at once (default 2); the rest wait `queued`.
    public let maximumActive: Int
    let importPollInterval: Duration
    let progressSaveInterval: TimeInterval = 2

    struct Entry {
        var record: DownloadRecord
        var lifecycle: DownloadLifecycle
        var task: Task<Void, Never>?
        var running: (any RunningDownload)?
        var generation = 0
        var bytesPerSecond = 0.0
        var secondsRemaining: Double?
        var lastSaved = Date.distantPast
        /// Progress not written yet, to be written when `progressSaveInterval` has passed.
        var unsavedProgress = false
        /// Paused, with files still in flight (they finish; its task says when none are left).
        var pausing = false
    }

    var entries: [String: Entry] = [:]
    var order: [String] = []
    let feed = EventFeed<DownloadEvent>()
    private var started = false
    var lastWrite: Task<Void, Never>?
    /// The records every node of a cluster shares (nil on a single server, whose records are
    /// files in the data directory). See `DownloadService+Cluster.swift`.
    let shared: (any SharedDownloadRecords)?
    /// Other nodes' downloads, as last read from `shared`.
    var foreign: [String: ForeignDownload] = [:]
    var clusterTasks: [Task<Void, Never>] = []
    /// The revision of the latest snapshot made (`DownloadSnapshot.revision`).
    private var revisions = 0
    private var controls: [String: Task<Void, Never>] = [:]
    /// The variants of recently inspected streams, by final URL, for predicate previews: the
    /// last `inspectedKept`, the oldest let go first (a ninth stream no longer empties it all,
    /// which took the preview away from a person still choosing on another tab).
    private var inspected: [String: [Variant]] = [:]
    /// Their URLs, the most recently inspected last.
    private var inspectedOrder: [String] = []
    static let inspectedKept = 8

    /// A service over `store`; nothing runs until it is started. `importPollInterval` is how often
    /// it looks for an import's asset to become ready; `shared` is set only in a cluster.
    public init(
        store: DownloadRecordStore, runner: any DownloadRunner = HLSDownloadRunner(), importer: any DownloadImporting,
        inspector: StreamInspector = StreamInspector(), maximumActive: Int = 2, importPollInterval: Duration = .milliseconds(500),
        shared: (any SharedDownloadRecords)? = nil
    ) {
        self.shared = shared
        self.store = store
        self.runner = runner
        self.importer = importer
        self.inspector = inspector
        self.maximumActive = max(1, maximumActive)
        self.importPollInterval = importPollInterval
    }

    /// The service `marquee serve` runs: bundles (and, without `shared`, records) under
    /// `DATA/downloads`, imports into `library`; with `shared`, the records every node shares.
    public init(library: MediaLibrary, shared: (any SharedDownloadRecords)? = nil) {
        self.init(
            store: DownloadRecordStore(directory: library.location.dataDirectory.appendingPathComponent("downloads")),
            importer: LibraryDownloadImporter(library: library), shared: shared)
    }

    /// Reads the records back and carries on: downloads that were running start again (their
    /// journals skip finished files), paused ones stay paused, imports are followed up.
    /// Returns the records that could not be read, each with why.
    @discardableResult
    public func start() async throws -> [String] {
        guard !started else { return [] }
        started = true
        if shared != nil { return try await startSharing() }
        let (records, problems) = try await store.load()
        await adopt(records)
        return problems
    }

    /// Takes `records` (read back, or claimed from a node that went away) into the service:
    /// running ones start again, paused ones wait, imports are followed up.
    func adopt(_ records: [DownloadRecord]) async {
        for record in records where entries[record.id] == nil {
            var lifecycle = DownloadLifecycle(state: record.state)
            var entry = Entry(record: record, lifecycle: lifecycle)
            entries[record.id] = entry
            order.append(record.id)
            guard case .success(let effects) = lifecycle.handle(.recover) else { continue }
            entry.lifecycle = lifecycle
            entry.record.state = lifecycle.state
            entries[record.id] = entry
            if entry.record.state != record.state { await persist(record.id) }
            perform(effects, for: record.id)
        }
        admit()
    }

    // MARK: Requests from the API

    /// Reads the stream at `url` for the variant picker and remembers its variants (a few
    /// streams' worth) for `check(predicate:against:)`. Throws `.invalid` (400) for an address
    /// that is not http(s), `.unusableStream` (422) when it cannot be fetched or read.
    public func inspect(_ url: String) async throws(DownloadServiceError) -> StreamInspection {
        guard StreamInspector.httpURL(url) != nil else {
            throw .invalid(
                url.trimmingCharacters(in: .whitespaces).isEmpty
                    ? "Paste the address of an HLS playlist (http:// or https://)."
                    : "“\(url)” is not an http:// or https:// address.", column: nil)
        }
        do {
            let (inspection, variants) = try await inspector.inspectVariants(url)
            remember(variants, of: inspection.url)
            return inspection
        } catch {
            throw .unusableStream(DownloadFailureText.describe(error))
        }
    }

    /// Keeps `variants` as the newest inspection, letting the oldest go past `inspectedKept`.
    func remember(_ variants: [Variant], of url: String) {
        inspectedOrder.removeAll { $0 == url }
        inspectedOrder.append(url)
        inspected[url] = variants
        while inspectedOrder.count > Self.inspectedKept { inspected[inspectedOrder.removeFirst()] = nil }
    }

    /// The URLs of the inspections kept, oldest first (for tests).
    var inspectedURLs: [String] { inspectedOrder }

    /// `check(predicate:)`, and when `url` was inspected, the variant the predicate picks there.
    public func check(predicate: String, against url: String?) -> PredicateCheck {
        var check = Self.check(predicate: predicate)
        guard check.valid, let url, let variants = inspected[url],
            !predicate.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            let qualifier = try? VariantQualifier(format: predicate),
            let choice = VariantSelection.choose(from: variants, qualifiers: [qualifier])
        else { return check }
        if case .noQualifierMatched = choice.reason {
            check.matches = false
        } else {
            check.matches = true
            check.chosen = choice.index
        }
        return check
    }

    /// Checks a predicate in the qualifier language; an empty one is valid (no preference).
    public nonisolated static func check(predicate: String) -> PredicateCheck {
        guard !predicate.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return PredicateCheck(valid: true) }
        do {
            _ = try VariantQualifier(format: predicate)
            return PredicateCheck(valid: true)
        } catch {
            return PredicateCheck(valid: false, message: error.message, column: error.column)
        }
    }

    /// Queues a download; it starts when a slot is free.
    public func enqueue(_ request: DownloadRequest) async throws(DownloadServiceError) -> DownloadSnapshot {
        guard let url = StreamInspector.httpURL(request.url) else {
            throw .invalid("“\(request.url)” is not an http:// or https:// address.", column: nil)
        }
        if let predicate = request.predicate {
            let check = Self.check(predicate: predicate)
            if !check.valid {
                throw .invalid("The predicate is not valid at column \(check.column ?? 1): \(check.message ?? "")", column: check.column)
            }
        }
        if let concurrency = request.concurrency, !(1...16).contains(concurrency) {
            throw .invalid("concurrency must be between 1 and 16", column: nil)
        }
        var request = request
        request.url = url.absoluteString
        let given = request.title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let title = given.isEmpty ? StreamInspector.suggestedTitle(for: url) : given
        request.title = title
        let record = DownloadRecord(request: request, title: title)
        entries[record.id] = Entry(record: record, lifecycle: DownloadLifecycle(state: .queued))
        order.append(record.id)
        await persist(record.id)
        broadcast(record.id)
        admit()
        return snapshot(of: entries[record.id]!)
    }

    /// Pauses a queued or running download (pausing a paused one does nothing); it stays paused
    /// across a restart. Throws `.notFound` (404) for an unknown ID, `.conflict` (409) when its
    /// state does not allow it.
    public func pause(_ id: String) async throws(DownloadServiceError) -> DownloadSnapshot { try await control(.pause, id) }
    /// Resumes a paused download: its task continues, or after a restart it is queued until a
    /// slot is free. Resuming one that is queued or running does nothing. Throws `.notFound`
    /// (404) or `.conflict` (409).
    public func resume(_ id: String) async throws(DownloadServiceError) -> DownloadSnapshot { try await control(.resume, id) }
    /// Stops a download and deletes the files it wrote; the record stays listed as `cancelled`
    /// (Retry starts it again). Throws `.notFound` (404), or `.conflict` (409) once it has
    /// finished downloading.
    public func cancel(_ id: String) async throws(DownloadServiceError) -> DownloadSnapshot { try await control(.cancel, id) }
    /// Queues a failed or cancelled download again. Throws `.notFound` (404) or `.conflict` (409).
    public func retry(_ id: String) async throws(DownloadServiceError) -> DownloadSnapshot { try await control(.retry, id) }

    /// A person's control: carried out here for a download this node runs, else handed to
    /// the node that runs it (`DownloadService+Cluster.swift`).
    private func control(_ event: DownloadLifecycle.Event, _ id: String) async throws(DownloadServiceError) -> DownloadSnapshot {
        if entries[id] == nil, shared != nil { return try await controlElsewhere(event, id) }
        return try await apply(event, to: id)
    }

    /// Removes the download: stops it and deletes its record and files (a library asset it
    /// became stays in the library).
    public func delete(_ id: String) async throws(DownloadServiceError) {
        if entries[id] == nil, shared != nil { return try await deleteElsewhere(id) }
        guard let entry = entries[id] else { throw .notFound("No download \(id)") }
        guard entry.lifecycle.allowsDelete else {
            throw .conflict("“\(entry.record.title)” is being added to the library; delete it when that has finished.")
        }
        entries[id] = nil
        controls[id] = nil
        order.removeAll { $0 == id }
        let task = entry.task
        task?.cancel()
        // A paused task's workers wait at its gate: open it so they see the cancellation.
        await entry.running?.resume()
        await task?.value
        let previous = lastWrite
        let removal = Task { [store, shared] in
            await previous?.value
            try? await store.delete(id)
            try? await shared?.delete(id: id)
        }
        lastWrite = removal
        await removal.value
        let usage = diskUsage
        feed.publish(.removed(id: id, diskUsage: usage))
        admit()
    }

    /// Every download, oldest first: this node's and, in a cluster, the other nodes'.
    public func list() -> (downloads: [DownloadSnapshot], diskUsage: Int64) {
        let mine = order.compactMap { entries[$0] }.map(snapshot(of:))
        guard !foreign.isEmpty else { return (mine, diskUsage) }
        let theirs = foreign.values.filter { entries[$0.record.id] == nil }.map(snapshot(of:))
        return ((mine + theirs).sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, diskUsage)
    }

    /// One download, this node's or (in a cluster) another node's; throws `.notFound` (404).
    public func download(_ id: String) throws(DownloadServiceError) -> DownloadSnapshot {
        if let entry = entries[id] { return snapshot(of: entry) }
        if let other = foreign[id] { return snapshot(of: other) }
        throw .notFound("No download \(id)")
    }

    /// Every change from now on, until the stream's consumer goes away.
    public func events() -> AsyncStream<DownloadEvent> {
        feed.subscribe(buffer: 256)
    }

    /// Bytes the downloads hold (what each has written; a finished one counts its bundle).
    var diskUsage: Int64 {
        let records = entries.values.map(\.record) + foreign.values.filter { entries[$0.record.id] == nil }.map(\.record)
        return records.reduce(0) { sum, record in
            if case .cancelled = record.state { return sum }
            return sum + record.figures.bytesWritten
        }
    }

    // MARK: The lifecycle's effects

    @discardableResult
    func apply(_ event: DownloadLifecycle.Event, to id: String, admitting: Bool = true) async throws(DownloadServiceError) -> DownloadSnapshot {
        guard var entry = entries[id] else { throw .notFound("No download \(id)") }
        let effects: [DownloadLifecycle.Effect]
        switch entry.lifecycle.handle(event) {
        case .failure(let refusal): throw .conflict(refusal.message)
        case .success(let list): effects = list
        }
        let changed = entry.record.state != entry.lifecycle.state
        entry.record.state = entry.lifecycle.state
        if changed {
            entry.record.updatedAt = Date()
            if entry.record.state != .downloading {
                entry.bytesPerSecond = 0
                entry.secondsRemaining = nil
            }
        }
        entries[id] = entry
        perform(effects, for: id)
        if changed {
            await persist(id)
            broadcast(id)
        }
        if admitting { admit() }
        return snapshot(of: entries[id] ?? entry)
    }

    /// Applies an event that comes from a task, not a person: refusals are not errors here.
    private func note(_ event: DownloadLifecycle.Event, for id: String) async {
        _ = try? await apply(event, to: id)
    }

    func perform(_ effects: [DownloadLifecycle.Effect], for id: String) {
        for effect in effects {
            switch effect {
            case .startTask:
                entries[id]?.generation += 1
                let generation = entries[id]?.generation ?? 0
                entries[id]?.task = Task { await self.runTask(id, generation: generation) }
            case .pauseTask:
                // "Pausing" until the task says its files in flight are done (or none were).
                let running = entries[id]?.running != nil
                entries[id]?.pausing = running
                control(id) { await $0.pause() }
            case .resumeTask:
                entries[id]?.pausing = false
                control(id) { await $0.resume() }
            case .cancelTask:
                entries[id]?.pausing = false
                entries[id]?.task?.cancel()
                // A paused task's workers wait at its gate: open it so they see the cancellation.
                control(id) { await $0.resume() }
                entries[id]?.running = nil
            case .removeFiles:
                let task = entries[id]?.task
                entries[id]?.task = nil
                entries[id]?.record.figures = DownloadFigures()
                Task { [store] in
                    await task?.value
                    try? await store.removeBundle(of: id)
                }
            case .importBundle:
                Task { await self.runImport(id) }
            case .releaseBundle:
                guard case .finished(let assetID)? = entries[id]?.lifecycle.state else { continue }
                Task { [store, importer] in
                    try? await importer.detachSource(of: assetID)
                    try? await store.removeBundle(of: id)
                }
            }
        }
    }

    /// Pauses and resumes reach a task in the order they were asked for.
    private func control(_ id: String, _ action: @escaping @Sendable (any RunningDownload) async -> Void) {
        guard let running = entries[id]?.running else { return }
        let previous = controls[id]
        controls[id] = Task {
            await previous?.value
            await action(running)
        }
    }

    /// Starts queued downloads while fewer than `maximumActive` run.
    func admit() {
        var active = entries.values.filter { $0.lifecycle.state == .downloading }.count
        for id in order where active < maximumActive {
            guard var entry = entries[id], entry.lifecycle.state == .queued else { continue }
            guard case .success(let effects) = entry.lifecycle.handle(.admit) else { continue }
            entry.record.state = entry.lifecycle.state
            entry.record.updatedAt = Date()
            entries[id] = entry
            active += 1
            perform(effects, for: id)
            broadcast(id)
            Task { await self.persist(id) }
        }
    }

    private func isCurrent(_ id: String, _ generation: Int) -> Bool {
        guard let entry = entries[id] else { return false }
        return entry.generation == generation && entry.lifecycle.hasTask
    }

    private func runTask(_ id: String, generation: Int) async {
        guard let request = entries[id]?.record.request else { return }
        do {
            let running = try await runner.prepare(request, into: store.bundle(for: id))
            guard isCurrent(id, generation), !Task.isCancelled else { return }
            entries[id]?.running = running
            if entries[id]?.lifecycle.state == .paused {
                control(id) { await $0.pause() }
                await controls[id]?.value
            }
            let watcher = Task {
                for await snapshot in running.snapshots { await self.progress(snapshot, for: id, generation: generation) }
            }
            do {
                try await withTaskCancellationHandler {
                    try await running.run()
                } onCancel: {
                    watcher.cancel()
                }
            } catch {
                watcher.cancel()
                throw error
            }
            await watcher.value
            guard isCurrent(id, generation) else { return }
            entries[id]?.running = nil
            await note(.taskFinished, for: id)
        } catch {
            guard isCurrent(id, generation), !(error is CancellationError), !Task.isCancelled else { return }
            // What cannot succeed goes now; what stays is counted as it is on disk.
            let onDisk = await DownloadDiskSweep.sweep(store.bundle(for: id))
            guard isCurrent(id, generation) else { return }
            entries[id]?.running = nil
            entries[id]?.record.figures.bytesWritten = onDisk
            await note(.taskFailed(DownloadFailureText.describe(error)), for: id)
        }
    }

    private func progress(_ snapshot: DownloadProgress, for id: String, generation: Int) async {
        guard isCurrent(id, generation), var entry = entries[id] else { return }
        entry.record.figures.completedFiles = snapshot.completedFiles
        entry.record.figures.totalFiles = snapshot.totalFiles
        entry.record.figures.bytesWritten = snapshot.bytesWritten
        entry.record.figures.expectedBytes = snapshot.expectedBytes
        entry.bytesPerSecond = snapshot.bytesPerSecond
        entry.secondsRemaining = snapshot.estimatedTimeRemaining
        entry.pausing = snapshot.phase == .pausing && entry.lifecycle.state == .paused
        let sinceSaved = Date().timeIntervalSince(entry.lastSaved)
        let save = sinceSaved >= progressSaveInterval
        let scheduleSave = !save && !entry.unsavedProgress
        entry.unsavedProgress = !save
        entries[id] = entry
        broadcast(id)
        if save { await persist(id) }
        if scheduleSave {
            // The last progress before a pause in reports is written too (other nodes show it).
            let wait = Duration.milliseconds(Int((progressSaveInterval - sinceSaved) * 1000) + 1)
            Task {
                try? await Task.sleep(for: wait)
                await self.saveProgress(id, generation: generation)
            }
        }
    }

    private func saveProgress(_ id: String, generation: Int) async {
        guard isCurrent(id, generation), entries[id]?.unsavedProgress == true else { return }
        await persist(id)
    }

    private func runImport(_ id: String) async {
        guard case .importing(var assetID)? = entries[id]?.lifecycle.state else { return }
        if assetID == nil {
            do {
                let added = try await importer.add(bundle: store.bundle(for: id))
                assetID = added
                await note(.added(assetID: added), for: id)
            } catch {
                await note(.importFailed("Could not add it to the library: \(DownloadFailureText.describe(error))"), for: id)
                return
            }
        }
        guard let assetID else { return }
        while case .importing? = entries[id]?.lifecycle.state {
            let status: LibraryImportStatus
            do { status = try await importer.status(of: assetID) } catch { status = .working }
            switch status {
            case .ready:
                await note(.imported, for: id)
                return
            case .failed(let message):
                await note(.importFailed("The library could not import it: \(message)"), for: id)
                return
            case .missing:
                await note(.importFailed("The library item was removed before it was ready."), for: id)
                return
            case .working:
                try? await Task.sleep(for: importPollInterval)
            }
        }
    }

    /// Writes the record; writes happen one after another in the order asked for, so an
    /// older state never lands after a newer one.
    func persist(_ id: String) async {
        guard var entry = entries[id] else { return }
        entry.lastSaved = Date()
        entry.unsavedProgress = false
        entries[id] = entry
        let record = entry.record
        let previous = lastWrite
        if let shared {
            let body = ForeignDownload.body(of: entry)
            let write = Task { [shared] in
                await previous?.value
                return (try? await shared.save(id: id, body: body, resumable: record.state.isUnfinished)) ?? true
            }
            lastWrite = Task { _ = await write.value }
            if await !write.value { await letGo(id) }
            return
        }
        let write = Task { [store] in
            await previous?.value
            try? await store.save(record)
        }
        lastWrite = write
        await write.value
    }

    func broadcast(_ id: String) {
        guard let entry = entries[id], feed.subscriberCount > 0 else { return }
        feed.publish(.changed(snapshot(of: entry), diskUsage: diskUsage))
    }

    func snapshot(of entry: Entry) -> DownloadSnapshot {
        snapshot(
            entry.record, bytesPerSecond: entry.bytesPerSecond, secondsRemaining: entry.secondsRemaining, playable: isPlayable(entry),
            pausing: entry.pausing && entry.lifecycle.state == .paused)
    }

    /// The snapshot of a download another node runs: as it last saved it, watchable here
    /// only once it is in the library (its files so far are on that node's disk).
    func snapshot(of other: ForeignDownload) -> DownloadSnapshot {
        snapshot(other.record, bytesPerSecond: other.bytesPerSecond, secondsRemaining: other.secondsRemaining, playable: false)
    }

    private func snapshot(
        _ record: DownloadRecord, bytesPerSecond: Double, secondsRemaining: Double?, playable: Bool, pausing: Bool = false
    ) -> DownloadSnapshot {
        var message: String?
        var assetID: String?
        var playerURL: String?
        switch record.state {
        case .failed(let reason): message = reason
        case .finished(let id):
            assetID = id
            playerURL = "/watch/\(id)"
        case .importing(let id): assetID = id
        default: break
        }
        if playerURL == nil, playable { playerURL = "/watch/\(record.id)" }
        let figures = record.figures
        let progress: Double = if case .finished = record.state { 1 } else { figures.fraction }
        return DownloadSnapshot(
            id: record.id, url: record.request.url, title: record.title, state: pausing ? "pausing" : record.state.name, message: message,
            assetID: assetID, playerURL: playerURL, request: record.request, progress: progress,
            completedFiles: figures.completedFiles, totalFiles: figures.totalFiles, bytesWritten: figures.bytesWritten,
            expectedBytes: figures.expectedBytes, bytesPerSecond: bytesPerSecond, secondsRemaining: secondsRemaining,
            createdAt: record.createdAt, updatedAt: record.updatedAt, revision: nextRevision(),
            allowedActions: DownloadLifecycle.allowedActions(in: record.state))
    }

    private func nextRevision() -> Int {
        revisions += 1
        return revisions
    }
}
