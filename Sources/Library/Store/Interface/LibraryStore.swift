public import Foundation

/// Where the library keeps its rows: assets, metadata overrides, playback positions, ingest
/// jobs, scheduled interstitials and player settings.
///
/// Two implementations share this contract and one test suite: `SQLiteLibraryStore` (GRDB,
/// the embedded default, one file in the data directory) and the PostgreSQL store in the
/// `PostgreSQLStores` module (several server nodes and workers on one database). Every
/// write publishes on `changes`; a store shared between processes also delivers the changes
/// other processes make (PostgreSQL's `LISTEN`/`NOTIFY`).
public protocol LibraryStore: Sendable {
    /// Every change written through this store (and, where the engine can tell, by other processes).
    var changes: LibraryChangeFeed { get }

    // MARK: Assets

    /// Adds an asset, and with `job` a queued ingest job for it, in one transaction.
    func insert(_ asset: Asset, job: Bool) async throws -> IngestJob?
    /// Writes an asset's fields; whether it is in the trash is left as stored (only `trash`
    /// and `restore` change that), so a job finishing on a deleted asset cannot bring it back.
    func save(_ asset: Asset) async throws
    /// The asset with `id`, unless it is in the trash (pass `includingTrashed` to see it anyway).
    func asset(id: String, includingTrashed: Bool) async throws -> Asset?
    /// Assets not in the trash whose title, subtitle, summary, series or episode title (own or
    /// overridden) contains `query`, case-insensitively; newest first.
    func assets(matching query: String?) async throws -> [Asset]
    /// Deletes an asset and everything that hangs off it; `false` when there was none.
    func deleteAsset(id: String) async throws -> Bool
    /// Marks an asset protected (its frames are never analysed for text) or not.
    func setProtected(_ isProtected: Bool, assetID: String) async throws
    /// Moves an asset to the trash; `false` when there is no such asset or it is already there.
    func trash(id: String, at date: Date) async throws -> Bool
    /// Takes an asset back out of the trash; `false` when it is not there.
    func restore(id: String) async throws -> Bool
    /// Assets put in the trash at or before `date`.
    func trashedAssets(before date: Date) async throws -> [Asset]
    /// Every asset row, trashed ones included.
    func assetCount() async throws -> Int

    // MARK: Overrides

    func override(for assetID: String) async throws -> MetadataOverride?
    func overrides(for assetIDs: [String]) async throws -> [String: MetadataOverride]
    func setOverride(_ override: MetadataOverride) async throws

    // MARK: Playback positions

    func position(for assetID: String) async throws -> PlaybackPosition?
    func positions(for assetIDs: [String]) async throws -> [String: PlaybackPosition]
    /// Stores where a viewer stopped; `nil` forgets it (watched to the end).
    func setPosition(_ position: PlaybackPosition?, for assetID: String) async throws

    // MARK: Viewing progress (per viewer)

    /// Stores how far `progress.viewer` got in `progress.assetID` (one row per viewer and asset).
    func recordViewing(_ progress: ViewingProgress) async throws
    /// One viewer's progress in assets not in the trash, most recently updated first, at most `limit` rows.
    func viewingHistory(viewer: String, limit: Int) async throws -> [ViewingProgress]
    /// One viewer's progress in each of `assetIDs` that has some and is not in the trash, in
    /// one query (a page of cards, or a session starting with `?resume=1`).
    func viewingProgress(viewer: String, assetIDs: [String]) async throws -> [String: ViewingProgress]

    // MARK: Jobs

    /// Jobs, newest first, optionally of one asset.
    func jobs(assetID: String?) async throws -> [IngestJob]
    func job(id: Int64) async throws -> IngestJob?
    /// Each of `assetIDs`' newest job, in one query (the asset list shows them side by side).
    func latestJobs(for assetIDs: [String]) async throws -> [String: IngestJob]
    /// Writes a job's state, progress and message (stamping `updatedAt`).
    func save(_ job: IngestJob) async throws
    /// Takes the oldest job that is due and marks it running under `worker`'s lease for
    /// `lease`, atomically, so two workers sharing a library never run the same job. Due
    /// means queued with its retry time come, or running under a lease that expired (its
    /// worker died: the job returns to the queue).
    func claimNextJob(worker: String, lease: Duration) async throws -> IngestJob?
    /// `worker`'s heartbeat: extends its lease on a running job; `false` when the lease is
    /// lost (taken by another worker after it expired, or the job was deleted).
    func renewLease(jobID: Int64, worker: String, lease: Duration) async throws -> Bool
    /// Saves a job only while `worker` holds its lease (a finished or failed job gives the
    /// lease up); `false` when it does not, and nothing was written.
    func save(_ job: IngestJob, leasedBy worker: String) async throws -> Bool
    /// Gives a job back to the queue, to run again no sooner than `delay` from now (a retry
    /// with backoff); `false` when `worker` no longer holds its lease.
    func requeue(_ job: IngestJob, after delay: Duration, leasedBy worker: String) async throws -> Bool
    /// Puts jobs left running by a process that died back in the queue.
    func requeueInterruptedJobs() async throws
    /// Re-queues a failed job (and marks its asset pending again).
    func retry(jobID: Int64) async throws -> IngestJob
    /// How many jobs are in each state, in one query: the queue's depth for `/metrics`, and
    /// the proof that the queue can be read for `/readyz`.
    func jobCounts() async throws -> [IngestJob.State: Int]

    // MARK: Interstitials

    func interstitials(for assetID: String) async throws -> [ScheduledInterstitial]
    func schedule(_ interstitial: ScheduledInterstitial) async throws

    /// The asset's authored breaks in timeline order (pre-rolls first, post-rolls last); rows
    /// scheduled the older way (`schedule(_:)`, the sample ad) are adopted into this list first.
    func authoredInterstitials(for assetID: String) async throws -> [AuthoredInterstitial]
    /// Validates and stores a new event (a fresh ID) or replaces the one with `event.id`, in one
    /// transaction; `validate` gets the asset's other events and returns the event to store.
    func saveAuthoredInterstitial(
        _ event: AuthoredInterstitial, replacing: Bool,
        validate: @Sendable (AuthoredInterstitial, [AuthoredInterstitial]) throws -> AuthoredInterstitial
    ) async throws -> AuthoredInterstitial
    /// Deletes one event; throws `InterstitialValidationError.notFound` when the asset has none with that ID.
    func deleteAuthoredInterstitial(id: String, assetID: String) async throws

    // MARK: Subtitle files

    /// The subtitle files added to the asset, oldest first.
    func subtitleFiles(for assetID: String) async throws -> [SubtitleFile]
    /// Stores a subtitle file (replacing the one with its id).
    func saveSubtitleFile(_ file: SubtitleFile) async throws
    /// Deletes one subtitle file of the asset; `false` when it has none with that id.
    func deleteSubtitleFile(id: String, assetID: String) async throws -> Bool

    // MARK: Settings

    func playerSettings() async throws -> PlayerSettings
    /// Stores the settings every new player starts from, after `PlayerSettings.validate()`.
    func setPlayerSettings(_ settings: PlayerSettings) async throws
}

extension LibraryStore {
    public func asset(id: String) async throws -> Asset? {
        try await asset(id: id, includingTrashed: false)
    }

    public func assets() async throws -> [Asset] {
        try await assets(matching: nil)
    }

    public func jobs() async throws -> [IngestJob] {
        try await jobs(assetID: nil)
    }

    @discardableResult
    public func trash(id: String) async throws -> Bool {
        try await trash(id: id, at: Date())
    }

    /// Claims the next due job for a one-off caller (tests, tools) under a long lease.
    public func claimNextJob() async throws -> IngestJob? {
        try await claimNextJob(worker: "local:\(ProcessInfo.processInfo.processIdentifier)", lease: .seconds(3600))
    }
}

extension Duration {
    /// This duration in seconds, as a `Double` (for SQL date arithmetic).
    public var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// The rules for a library search, shared by every store.
public enum LibrarySearch {
    /// The longest search accepted, in Unicode scalars (what JSON Schema's `maxLength` counts,
    /// so a query openapi.json allows is one the server reads; a letter with combining marks is
    /// several).
    public static let maximumQueryLength = 200

    /// The search text to match, or `nil` for "everything" (no query, or only spaces);
    /// throws for a query longer than `maximumQueryLength`.
    public static func normalized(_ query: String?) throws -> String? {
        if let query, query.unicodeScalars.count > maximumQueryLength {
            throw LibraryError.invalidRequest(
                "The search is \(query.unicodeScalars.count) characters long; at most \(maximumQueryLength) are accepted")
        }
        guard let query, !query.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return query
    }

    /// A `LIKE` pattern that matches `query` anywhere, with `\` escaping `%`, `_` and itself.
    public static func likePattern(_ query: String) -> String {
        "%"
            + query.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}

extension PlayerSettings {
    /// Throws `LibraryError.invalidSettings` naming the first value out of range.
    public func validate() throws {
        if let speeds, speeds.count > Self.maximumSpeeds {
            throw LibraryError.invalidSettings("\(speeds.count) speeds given; at most \(Self.maximumSpeeds)")
        }
        if let speeds, let bad = speeds.first(where: { !($0 > 0 && $0 <= 16) }) {
            throw LibraryError.invalidSettings("speed \(bad) is not between 0 and 16")
        }
        guard skipInterval.isFinite, (1...300).contains(skipInterval) else {
            throw LibraryError.invalidSettings("skipInterval \(skipInterval) is not between 1 and 300 seconds")
        }
        guard videoFrameAnalysisDelay.isFinite, (0...10).contains(videoFrameAnalysisDelay) else {
            throw LibraryError.invalidSettings("videoFrameAnalysisDelay \(videoFrameAnalysisDelay) is not between 0 and 10 seconds")
        }
    }
}
