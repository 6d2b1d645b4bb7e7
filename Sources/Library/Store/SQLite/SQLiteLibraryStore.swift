public import EventFeed
public import Foundation
import GRDB
import SQLiteDatabase

/// The library's SQLite database: assets, overrides, jobs, interstitials and settings — the
/// embedded `LibraryStore`, one file in the data directory.
///
/// A WAL-mode `DatabasePool`, so reads never wait for writes and every access is async (GRDB
/// runs it on its own serial queues, never on the cooperative pool).
public final class SQLiteLibraryStore: LibraryStore {
    let database: DatabasePool
    /// Every change written through this store, for pages that show the library live.
    public let changes = LibraryChangeFeed()

    /// Opens (creating if needed) the database at `url` and runs pending migrations.
    public init(url: URL) throws {
        database = try SQLiteDatabase.openPool(at: url, migrator: LibraryMigrations.migrator)
    }

    // MARK: Assets

    public func insert(_ asset: Asset, job: Bool) async throws -> IngestJob? {
        let created = try await database.write { db -> IngestJob? in
            try asset.insert(db)
            guard job else { return nil }
            var newJob = IngestJob(assetID: asset.id)
            try newJob.insert(db)
            return newJob
        }
        changes.publish(.assetChanged(asset.id))
        return created
    }

    /// Writes an asset's fields; whether it is in the trash is left as stored (only `trash`
    /// and `restore` change that), so a job finishing on a deleted asset cannot bring it back.
    public func save(_ asset: Asset) async throws {
        let trashed = try await database.write { db -> Bool in
            var row = asset
            row.deletedAt = try Date.fetchOne(db, sql: "SELECT deletedAt FROM asset WHERE id = ?", arguments: [asset.id])
            try row.update(db)
            return row.deletedAt != nil
        }
        changes.publish(trashed ? .assetRemoved(asset.id) : .assetChanged(asset.id))
    }

    /// The asset with `id`, unless it is in the trash (pass `includingTrashed` to see it anyway).
    public func asset(id: String, includingTrashed: Bool = false) async throws -> Asset? {
        try await database.read { db in
            let asset = try Asset.fetchOne(db, key: id)
            return includingTrashed || asset?.deletedAt == nil ? asset : nil
        }
    }

    /// The longest search accepted, in characters.
    public static let maximumQueryLength = LibrarySearch.maximumQueryLength

    /// Assets whose title, subtitle or summary (own or overridden) contains `query`, newest first.
    public func assets(matching query: String? = nil) async throws -> [Asset] {
        let query = try LibrarySearch.normalized(query)
        return try await database.read { db in
            guard let query else {
                return try Asset.filter(Asset.Columns.deletedAt == nil).order(Asset.Columns.createdAt.desc, Column.rowID.desc).fetchAll(db)
            }
            let pattern = LibrarySearch.likePattern(query)
            return try Asset.fetchAll(
                db,
                sql: """
                    SELECT asset.* FROM asset LEFT JOIN metadataOverride o ON o.assetID = asset.id
                    WHERE asset.deletedAt IS NULL AND (asset.title LIKE ?1 ESCAPE '\\' OR asset.subtitle LIKE ?1 ESCAPE '\\'
                       OR asset.summary LIKE ?1 ESCAPE '\\' OR o.title LIKE ?1 ESCAPE '\\'
                       OR o.subtitle LIKE ?1 ESCAPE '\\' OR o.summary LIKE ?1 ESCAPE '\\'
                       OR asset.seriesTitle LIKE ?1 ESCAPE '\\' OR asset.episodeTitle LIKE ?1 ESCAPE '\\'
                       OR o.seriesTitle LIKE ?1 ESCAPE '\\' OR o.episodeTitle LIKE ?1 ESCAPE '\\')
                    ORDER BY asset.createdAt DESC, asset.rowid DESC
                    """, arguments: [pattern])
        }
    }

    @discardableResult
    public func deleteAsset(id: String) async throws -> Bool {
        let deleted = try await database.write { db in try Asset.deleteOne(db, key: id) }
        if deleted { changes.publish(.assetRemoved(id)) }
        return deleted
    }

    /// Marks an asset protected (its frames are never analysed for text) or not.
    public func setProtected(_ isProtected: Bool, assetID: String) async throws {
        let changed = try await database.write { db in
            try Asset.filter(key: assetID).updateAll(db, Asset.Columns.isProtected.set(to: isProtected)) > 0
        }
        guard changed else { throw LibraryError.assetNotFound(assetID) }
        changes.publish(.assetChanged(assetID))
    }

    // MARK: Trash

    /// Moves an asset to the trash: it disappears from lists at once and can be restored
    /// until the trash is purged. Returns `false` when there is no such asset (or it is
    /// already in the trash).
    @discardableResult
    public func trash(id: String, at date: Date = Date()) async throws -> Bool {
        let trashed = try await database.write { db in
            try Asset.filter(key: id).filter(Asset.Columns.deletedAt == nil).updateAll(db, Asset.Columns.deletedAt.set(to: date)) > 0
        }
        if trashed { changes.publish(.assetRemoved(id)) }
        return trashed
    }

    /// Takes an asset back out of the trash; `false` when it is not there (never deleted, or purged).
    @discardableResult
    public func restore(id: String) async throws -> Bool {
        let restored = try await database.write { db in
            try Asset.filter(key: id).filter(Asset.Columns.deletedAt != nil).updateAll(db, Asset.Columns.deletedAt.set(to: nil)) > 0
        }
        if restored { changes.publish(.assetChanged(id)) }
        return restored
    }

    /// Assets put in the trash at or before `date`.
    public func trashedAssets(before date: Date) async throws -> [Asset] {
        try await database.read { db in try Asset.filter(Asset.Columns.deletedAt <= date).fetchAll(db) }
    }

    public func assetCount() async throws -> Int {
        try await database.read { db in try Asset.fetchCount(db) }
    }

    public func jobCounts() async throws -> [IngestJob.State: Int] {
        try await database.read { db in
            var counts: [IngestJob.State: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, count(*) FROM \(IngestJob.databaseTableName) GROUP BY state") {
                if let state = IngestJob.State(rawValue: row[0]) { counts[state] = row[1] }
            }
            return counts
        }
    }

    // MARK: Overrides

    public func override(for assetID: String) async throws -> MetadataOverride? {
        try await database.read { db in try MetadataOverride.fetchOne(db, key: assetID) }
    }

    public func overrides(for assetIDs: [String]) async throws -> [String: MetadataOverride] {
        try await database.read { db in
            let rows = try MetadataOverride.filter(keys: assetIDs).fetchAll(db)
            return Dictionary(rows.map { ($0.assetID, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    public func setOverride(_ override: MetadataOverride) async throws {
        try await database.write { db in try override.upsert(db) }
        changes.publish(.assetChanged(override.assetID))
    }

    // MARK: Playback positions

    public func position(for assetID: String) async throws -> PlaybackPosition? {
        try await database.read { db in try PlaybackPosition.fetchOne(db, key: assetID) }
    }

    public func positions(for assetIDs: [String]) async throws -> [String: PlaybackPosition] {
        try await database.read { db in
            let rows = try PlaybackPosition.filter(keys: assetIDs).fetchAll(db)
            return Dictionary(rows.map { ($0.assetID, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Stores where a viewer stopped; `nil` forgets it (watched to the end).
    public func setPosition(_ position: PlaybackPosition?, for assetID: String) async throws {
        try await database.write { db in
            guard try Asset.exists(db, key: assetID) else { throw LibraryError.assetNotFound(assetID) }
            if let position { try position.upsert(db) } else { try PlaybackPosition.deleteOne(db, key: assetID) }
        }
        changes.publish(.assetChanged(assetID))
    }

    // MARK: Viewing progress

    public func recordViewing(_ progress: ViewingProgress) async throws {
        try await database.write { db in
            guard try Asset.exists(db, key: progress.assetID) else { throw LibraryError.assetNotFound(progress.assetID) }
            try progress.upsert(db)
        }
    }

    public func viewingHistory(viewer: String, limit: Int) async throws -> [ViewingProgress] {
        try await database.read { db in
            try ViewingProgress.fetchAll(
                db,
                sql: """
                    SELECT viewingProgress.* FROM viewingProgress JOIN asset ON asset.id = viewingProgress.assetID
                    WHERE viewingProgress.viewer = ? AND asset.deletedAt IS NULL
                    ORDER BY viewingProgress.updatedAt DESC LIMIT ?
                    """, arguments: [viewer, limit])
        }
    }

    public func viewingProgress(viewer: String, assetIDs: [String]) async throws -> [String: ViewingProgress] {
        guard !assetIDs.isEmpty else { return [:] }
        return try await database.read { db in
            // GRDB's SQL interpolation writes one argument per ID (`IN (?,?,…)`).
            let rows = try ViewingProgress.fetchAll(
                db,
                SQLRequest<ViewingProgress>(
                    """
                    SELECT viewingProgress.* FROM viewingProgress JOIN asset ON asset.id = viewingProgress.assetID
                    WHERE viewingProgress.viewer = \(viewer) AND asset.deletedAt IS NULL AND viewingProgress.assetID IN \(assetIDs)
                    """))
            return Dictionary(rows.map { ($0.assetID, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    // MARK: Jobs

    public func jobs(assetID: String? = nil) async throws -> [IngestJob] {
        try await database.read { db in
            var request = IngestJob.order(IngestJob.Columns.id.desc)
            if let assetID { request = request.filter(IngestJob.Columns.assetID == assetID) }
            return try request.fetchAll(db)
        }
    }

    public func latestJobs(for assetIDs: [String]) async throws -> [String: IngestJob] {
        guard !assetIDs.isEmpty else { return [:] }
        return try await database.read { db in
            let rows = try IngestJob.fetchAll(
                db,
                SQLRequest<IngestJob>(
                    """
                    SELECT * FROM ingestJob WHERE id IN (SELECT max(id) FROM ingestJob WHERE assetID IN \(assetIDs) GROUP BY assetID)
                    """))
            return Dictionary(rows.map { ($0.assetID, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    public func job(id: Int64) async throws -> IngestJob? {
        try await database.read { db in try IngestJob.fetchOne(db, key: id) }
    }

    public func save(_ job: IngestJob) async throws {
        var job = job
        job.updatedAt = Date()
        try await database.write { [job] db in try job.update(db) }
        changes.publish(.assetChanged(job.assetID))
    }

    public func claimNextJob(worker: String, lease: Duration) async throws -> IngestJob? {
        let claimed = try await database.write { db -> IngestJob? in
            let now = Date()
            guard
                var job = try IngestJob.fetchOne(
                    db,
                    sql: """
                        SELECT * FROM ingestJob
                        WHERE (state = 'queued' AND (runAfter IS NULL OR runAfter <= ?1))
                           OR (state = 'running' AND (leaseExpiresAt IS NULL OR leaseExpiresAt < ?1))
                        ORDER BY id LIMIT 1
                        """, arguments: [now])
            else { return nil }
            job.state = .running
            job.attempts += 1
            job.progress = 0
            job.message = "Starting"
            job.updatedAt = now
            try job.update(db)
            try db.execute(
                sql: "UPDATE ingestJob SET leaseOwner = ?, leaseExpiresAt = ?, runAfter = NULL WHERE id = ?",
                arguments: [worker, now.addingTimeInterval(lease.secondsValue), job.id])
            return job
        }
        if let claimed { changes.publish(.assetChanged(claimed.assetID)) }
        return claimed
    }

    public func renewLease(jobID: Int64, worker: String, lease: Duration) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE ingestJob SET leaseExpiresAt = ? WHERE id = ? AND leaseOwner = ? AND state = 'running'",
                arguments: [Date().addingTimeInterval(lease.secondsValue), jobID, worker])
            return db.changesCount > 0
        }
    }

    public func save(_ job: IngestJob, leasedBy worker: String) async throws -> Bool {
        var job = job
        job.updatedAt = Date()
        let saved = try await database.write { [job] db -> Bool in
            guard let id = job.id,
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM ingestJob WHERE id = ? AND leaseOwner = ? AND state = 'running'",
                    arguments: [id, worker]) == true
            else { return false }
            try job.update(db)
            if job.state != .running {
                try db.execute(sql: "UPDATE ingestJob SET leaseOwner = NULL, leaseExpiresAt = NULL WHERE id = ?", arguments: [id])
            }
            return true
        }
        if saved { changes.publish(.assetChanged(job.assetID)) }
        return saved
    }

    public func requeue(_ job: IngestJob, after delay: Duration, leasedBy worker: String) async throws -> Bool {
        let requeued = try await database.write { db -> Bool in
            try db.execute(
                sql: """
                    UPDATE ingestJob SET state = 'queued', progress = 0, message = ?, failureReason = NULL, updatedAt = ?,
                        runAfter = ?, leaseOwner = NULL, leaseExpiresAt = NULL, attempts = ?
                    WHERE id = ? AND leaseOwner = ? AND state = 'running'
                    """, arguments: [job.message, Date(), Date().addingTimeInterval(delay.secondsValue), job.attempts, job.id, worker])
            return db.changesCount > 0
        }
        if requeued { changes.publish(.assetChanged(job.assetID)) }
        return requeued
    }

    /// Puts jobs left running by a process that died back in the queue.
    public func requeueInterruptedJobs() async throws {
        _ = try await database.write { db in
            try IngestJob.filter(IngestJob.Columns.state == IngestJob.State.running.rawValue)
                .updateAll(db, IngestJob.Columns.state.set(to: IngestJob.State.queued.rawValue))
        }
    }

    /// Re-queues a failed job.
    public func retry(jobID: Int64) async throws -> IngestJob {
        let job = try await database.write { db -> IngestJob in
            guard var job = try IngestJob.fetchOne(db, key: jobID) else { throw LibraryError.jobNotFound(jobID) }
            guard job.state == .failed else { throw LibraryError.jobNotRetryable(jobID, state: job.state.rawValue) }
            job.state = .queued
            // A retry starts afresh: the attempts that failed do not count against it.
            job.attempts = 0
            job.progress = 0
            job.message = nil
            job.failureReason = nil
            job.updatedAt = Date()
            try job.update(db)
            if var asset = try Asset.fetchOne(db, key: job.assetID) {
                asset.status = .pending
                try asset.update(db)
            }
            return job
        }
        changes.publish(.assetChanged(job.assetID))
        return job
    }

    // MARK: Interstitials

    public func interstitials(for assetID: String) async throws -> [ScheduledInterstitial] {
        try await database.read { db in
            try ScheduledInterstitial.filter(ScheduledInterstitial.Columns.assetID == assetID).order(ScheduledInterstitial.Columns.time).fetchAll(db)
        }
    }

    public func schedule(_ interstitial: ScheduledInterstitial) async throws {
        try await database.write { db in
            var row = interstitial
            try row.insert(db)
        }
    }

    // MARK: Settings

    public func playerSettings() async throws -> PlayerSettings {
        try await database.read { db in
            guard let text = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'player'") else {
                return PlayerSettings()
            }
            return (try? JSONDecoder().decode(PlayerSettings.self, from: Data(text.utf8))) ?? PlayerSettings()
        }
    }

    public func setPlayerSettings(_ settings: PlayerSettings) async throws {
        try settings.validate()
        let text = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try await database.write { db in
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES ('player', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [text])
        }
    }
}
