public import EventFeed
public import Foundation
public import Library
import Logging
import NIOSSL
import PostgresNIO
import Synchronization

/// The library on a PostgreSQL server: the same rows and rules as `SQLiteLibraryStore`, for
/// several server nodes and workers sharing one database.
///
/// Opens a connection pool (`PostgresClient`), migrates the schema (versioned, under an
/// advisory lock) and listens on the `marquee_library` channel: every write sends a
/// `NOTIFY` in its own transaction, so `changes` carries what any process changed, not just
/// this one. Jobs are claimed with `FOR UPDATE SKIP LOCKED`, so two workers never take the same job.
public final class PostgreSQLLibraryStore: LibraryStore {
    public let changes = LibraryChangeFeed()
    let client: PostgresClient
    let logger: Logger
    /// Tells this process's notices from other processes' (they are delivered locally at once).
    let origin = UUID().uuidString
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let listening = ListeningFlag()
    private let appliedAtOpen = Mutex<[String]>([])

    /// The migrations `open` applied ("VERSION: name"), none when the database was up to date.
    public var migrationsAppliedAtOpen: [String] { appliedAtOpen.withLock { $0 } }

    /// Every migration this version has ("VERSION: name"), oldest first.
    public static var migrationIdentifiers: [String] { PostgreSQLMigrations.all.map(\.identifier) }

    /// Whether the `LISTEN` connection is up, shared with the task that keeps it.
    final class ListeningFlag: Sendable {
        let up = Mutex<Bool>(false)
    }
    /// The channel every store on one database shares.
    public static let channel = "marquee_library"

    /// Where the server listens, for `awaitConnection`'s check that it accepts connections at all.
    let endpoint: ServerEndpoint

    private init(client: PostgresClient, logger: Logger, endpoint: ServerEndpoint) {
        self.client = client
        self.logger = logger
        self.endpoint = endpoint
    }

    /// Connects to `info`, migrates the schema and starts listening for other processes' changes;
    /// fails after `timeout` when the server cannot be reached (the pool itself would keep trying).
    public static func open(
        _ info: PostgresConnectionInfo, maximumConnections: Int = 8,
        timeout: Duration = .seconds(15)
    ) async throws -> PostgreSQLLibraryStore {
        var configuration: PostgresClient.Configuration
        if let socket = info.socketDirectory {
            configuration = .init(unixSocketPath: socket + "/.s.PGSQL.\(info.port)", username: info.user, password: info.password, database: info.database)
        } else {
            let tls: PostgresClient.Configuration.TLS =
                switch info.tls {
                case .disable: .disable
                case .prefer: .prefer(.makeClientConfiguration())
                case .require: .require(.makeClientConfiguration())
                }
            configuration = .init(host: info.host, port: info.port, username: info.user, password: info.password, database: info.database, tls: tls)
        }
        configuration.options.maximumConnections = max(2, maximumConnections)
        configuration.options.connectTimeout = .seconds(5)
        var logger = Logger(label: "marquee.library.postgres")
        logger.logLevel = .error
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let endpoint: ServerEndpoint =
            info.socketDirectory.map { .unixSocket($0 + "/.s.PGSQL.\(info.port)") } ?? .tcp(host: info.host, port: info.port)
        let store = PostgreSQLLibraryStore(client: client, logger: logger, endpoint: endpoint)
        store.tasks.withLock { $0.append(Task { await client.run() }) }  // holds the client only
        let migrationLogger = logger
        do {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    let ran = try await PostgreSQLMigrations.migrate(client, logger: migrationLogger)
                    let names = PostgreSQLMigrations.all.filter { ran.contains($0.version) }.map(\.identifier)
                    store.appliedAtOpen.withLock { $0 = names }
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return false
                }
                let migrated = try await group.next() ?? false
                group.cancelAll()
                guard migrated else { throw PostgreSQLStoreError.TimedOut(limit: timeout) }
            }
        } catch let newer as NewerSchemaError {
            store.close()
            throw NewerSchemaError(database: info.description, unknown: newer.unknown, newestKnown: newer.newestKnown)
        } catch {
            store.close()
            throw PostgreSQLStoreError(operation: "connect to and migrate \(info)", underlying: error)
        }
        store.startListening()
        // Changes made by others from now on must arrive: wait for the LISTEN to be in place.
        let deadline = ContinuousClock.now + timeout
        while !store.isListening, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        return store
    }

    /// Stops listening and closes every connection.
    public func close() {
        let running = tasks.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in running { task.cancel() }
    }

    deinit { close() }

    // MARK: Change notices

    /// Listens on its own pooled connection, reconnecting after a drop. The task holds the
    /// client, the feed and the flag, never the store, so a store nobody holds closes itself.
    private func startListening() {
        let (client, changes, origin, listening) = (client, changes, origin, listening)
        let task = Task {
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notices in
                            listening.up.withLock { $0 = true }
                            for try await notice in notices {
                                Self.receive(notice.payload, origin: origin, into: changes)
                            }
                        }
                    }
                } catch {
                    listening.up.withLock { $0 = false }
                    if Task.isCancelled { return }
                    // The connection dropped: pages reload what they show when they reconnect;
                    // listen again after a short pause.
                    try? await Task.sleep(for: .milliseconds(500))
                }
            }
        }
        tasks.withLock { $0.append(task) }
    }

    /// Whether the `LISTEN` connection is up (changes from other processes arrive).
    public var isListening: Bool { listening.up.withLock { $0 } }

    static func receive(_ payload: String, origin: String, into changes: LibraryChangeFeed) {
        guard let notice = try? JSONDecoder().decode(ChangeNotice.self, from: Data(payload.utf8)), notice.origin != origin,
            let change = notice.change
        else { return }
        changes.publish(change)
    }

    /// Sends `change` to every other process on `connection` (inside the caller's transaction,
    /// so it is delivered only if the write commits) and publishes it here.
    func notify(_ change: LibraryChange, on connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_notify(\(Self.channel), \(ChangeNotice(origin: origin, change: change).payload))", logger: logger)
    }

    /// How long a read or write waits for a pooled connection before it asks whether the
    /// server accepts connections at all; when it does not, the database counts as down
    /// (`PostgreSQLStoreError.isUnreachable`, which the API answers 503). The pool itself never
    /// gives up: while the server is down it keeps reconnecting, and a request waiting for a
    /// connection would wait until the server is back (66 s in a 60 s outage). A server that
    /// accepts connections is waited for as before (a busy pool, a slow machine).
    public static let connectionWait: Duration = .seconds(2)

    /// Waits for the pool to lend a connection (at once while the server is up and the pool
    /// not exhausted); after `connectionWait`, and every `connectionWait` after that, checks
    /// that the server accepts a connection, and throws `TimedOut` when it does not, which the
    /// caller wraps as it wraps the pool's own errors.
    func awaitConnection() async throws {
        let (client, endpoint, wait) = (client, endpoint, Self.connectionWait)
        let lent = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await client.withConnection { _ in }
                return true
            }
            group.addTask {
                while true {
                    try await Task.sleep(for: wait)
                    if await !endpoint.acceptsConnections(within: wait) { return false }
                }
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        guard lent else { throw PostgreSQLStoreError.TimedOut(limit: wait) }
    }

    /// Runs `body` in a transaction, then publishes `changes` here (they were sent to the others inside it).
    func write<Result: Sendable>(
        _ what: String, changes: @Sendable (Result) -> [LibraryChange] = { _ in [] },
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let result: Result
        do {
            try await awaitConnection()
            result = try await client.withTransaction(logger: logger) { connection in
                let result = try await body(connection)
                for change in changes(result) { try await self.notify(change, on: connection) }
                return result
            }
        } catch let error as LibraryError {
            throw error
        } catch let error as PostgresTransactionError {
            if let refusal = error.closureError as? LibraryError { throw refusal }
            throw PostgreSQLStoreError(operation: what, underlying: error)
        } catch {
            throw PostgreSQLStoreError(operation: what, underlying: error)
        }
        for change in changes(result) { self.changes.publish(change) }
        return result
    }

    /// The rows of `query`, decoded; a failure names `what` was being read.
    func read<Result>(_ what: String, _ query: PostgresQuery, _ decode: (PostgresRow) throws -> Result) async throws -> [Result] {
        do {
            try await awaitConnection()
            var results: [Result] = []
            for try await row in try await client.query(query, logger: logger) { results.append(try decode(row)) }
            return results
        } catch {
            throw PostgreSQLStoreError(operation: what, underlying: error)
        }
    }

    // MARK: Assets

    public func insert(_ asset: Asset, job: Bool) async throws -> IngestJob? {
        try await write("add asset \(asset.id)", changes: { _ in [.assetChanged(asset.id)] }) { connection -> IngestJob? in
            try await connection.query(Self.insertQuery(asset), logger: self.logger)
            guard job else { return nil }
            let queued = IngestJob(assetID: asset.id)
            let rows = try await connection.query(
                """
                INSERT INTO ingest_job (asset_id, state, progress, message, attempts, created_at, updated_at)
                VALUES (\(queued.assetID), \(queued.state.rawValue), \(queued.progress), \(queued.message), \(queued.attempts), \(queued.createdAt), \(queued.updatedAt))
                RETURNING \(unescaped: Self.jobColumns)
                """, logger: self.logger)
            for try await row in rows { return try Self.job(from: row) }
            return nil
        }
    }

    public func save(_ asset: Asset) async throws {
        _ = try await write("save asset \(asset.id)", changes: { trashed in [trashed ? .assetRemoved(asset.id) : .assetChanged(asset.id)] }) {
            connection -> Bool in
            let rows = try await connection.query(
                """
                UPDATE asset SET title = \(asset.title), subtitle = \(asset.subtitle), summary = \(asset.summary), duration = \(asset.duration),
                    width = \(asset.width), height = \(asset.height), source_path = \(asset.sourcePath), source_missing = \(asset.sourceMissing),
                    status = \(asset.status.rawValue), role = \(asset.role.rawValue), badges = \(asset.badges), created_at = \(asset.createdAt),
                    series_title = \(asset.seriesTitle), season_number = \(asset.seasonNumber), episode_number = \(asset.episodeNumber),
                    episode_title = \(asset.episodeTitle), release_date = \(asset.releaseDate), live_start_date = \(asset.liveStartDate),
                    live_end_date = \(asset.liveEndDate), is_protected = \(asset.isProtected)
                WHERE id = \(asset.id) RETURNING deleted_at IS NOT NULL
                """, logger: self.logger)
            for try await trashed in rows.decode(Bool.self) { return trashed }
            throw LibraryError.assetNotFound(asset.id)
        }
    }

    public func asset(id: String, includingTrashed: Bool) async throws -> Asset? {
        try await read(
            "read asset \(id)", "SELECT \(unescaped: Self.assetColumns) FROM asset WHERE id = \(id) AND (\(includingTrashed) OR deleted_at IS NULL)",
            Self.asset(from:)
        ).first
    }

    public func assets(matching query: String?) async throws -> [Asset] {
        guard let query = try LibrarySearch.normalized(query) else {
            return try await read(
                "list assets", "SELECT \(unescaped: Self.assetColumns) FROM asset WHERE deleted_at IS NULL ORDER BY created_at DESC, seq DESC",
                Self.asset(from:))
        }
        let pattern = LibrarySearch.likePattern(query)
        return try await read(
            "search assets",
            """
            SELECT \(unescaped: Self.assetColumns(table: "a")) FROM asset a LEFT JOIN metadata_override o ON o.asset_id = a.id
            WHERE a.deleted_at IS NULL AND EXISTS (
                SELECT 1 FROM unnest(ARRAY[a.title, a.subtitle, a.summary, a.series_title, a.episode_title,
                                           o.title, o.subtitle, o.summary, o.series_title, o.episode_title]) AS field(text)
                WHERE field.text ILIKE \(pattern) ESCAPE '\\')
            ORDER BY a.created_at DESC, a.seq DESC
            """, Self.asset(from:))
    }

    public func deleteAsset(id: String) async throws -> Bool {
        try await write("delete asset \(id)", changes: { deleted in deleted ? [.assetRemoved(id)] : [] }) { connection in
            try await Self.any(connection.query("DELETE FROM asset WHERE id = \(id) RETURNING id", logger: self.logger))
        }
    }

    public func setProtected(_ isProtected: Bool, assetID: String) async throws {
        _ = try await write("protect asset \(assetID)", changes: { _ in [.assetChanged(assetID)] }) { connection in
            guard try await Self.any(connection.query("UPDATE asset SET is_protected = \(isProtected) WHERE id = \(assetID) RETURNING id", logger: self.logger))
            else {
                throw LibraryError.assetNotFound(assetID)
            }
            return true
        }
    }

    public func trash(id: String, at date: Date) async throws -> Bool {
        try await write("trash asset \(id)", changes: { trashed in trashed ? [.assetRemoved(id)] : [] }) { connection in
            try await Self.any(
                connection.query("UPDATE asset SET deleted_at = \(date) WHERE id = \(id) AND deleted_at IS NULL RETURNING id", logger: self.logger))
        }
    }

    public func restore(id: String) async throws -> Bool {
        try await write("restore asset \(id)", changes: { restored in restored ? [.assetChanged(id)] : [] }) { connection in
            try await Self.any(
                connection.query("UPDATE asset SET deleted_at = NULL WHERE id = \(id) AND deleted_at IS NOT NULL RETURNING id", logger: self.logger))
        }
    }

    public func trashedAssets(before date: Date) async throws -> [Asset] {
        try await read("list the trash", "SELECT \(unescaped: Self.assetColumns) FROM asset WHERE deleted_at <= \(date) ORDER BY deleted_at", Self.asset(from:))
    }

    public func assetCount() async throws -> Int {
        try await read("count assets", "SELECT count(*) FROM asset") { try $0.decode(Int.self) }.first ?? 0
    }

    public func jobCounts() async throws -> [IngestJob.State: Int] {
        let rows = try await read("count jobs", "SELECT state, count(*) FROM ingest_job GROUP BY state") { try $0.decode((String, Int).self) }
        var counts: [IngestJob.State: Int] = [:]
        for (state, count) in rows { if let state = IngestJob.State(rawValue: state) { counts[state] = count } }
        return counts
    }

    // MARK: Overrides

    public func override(for assetID: String) async throws -> MetadataOverride? {
        try await overrides(for: [assetID])[assetID]
    }

    public func overrides(for assetIDs: [String]) async throws -> [String: MetadataOverride] {
        guard !assetIDs.isEmpty else { return [:] }
        let rows = try await read(
            "read overrides",
            """
            SELECT asset_id, title, subtitle, summary, artwork_url, series_title, season_number, episode_number, episode_title,
                   release_date, live_start_date, live_end_date
            FROM metadata_override WHERE asset_id = ANY(\(assetIDs))
            """, Self.override(from:))
        return Dictionary(rows.map { ($0.assetID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func setOverride(_ o: MetadataOverride) async throws {
        _ = try await write("save the override of \(o.assetID)", changes: { _ in [.assetChanged(o.assetID)] }) { connection in
            try await connection.query(
                """
                INSERT INTO metadata_override (asset_id, title, subtitle, summary, artwork_url, series_title, season_number, episode_number,
                                               episode_title, release_date, live_start_date, live_end_date)
                VALUES (\(o.assetID), \(o.title), \(o.subtitle), \(o.summary), \(o.artworkURL), \(o.seriesTitle), \(o.seasonNumber),
                        \(o.episodeNumber), \(o.episodeTitle), \(o.releaseDate), \(o.liveStartDate), \(o.liveEndDate))
                ON CONFLICT (asset_id) DO UPDATE SET title = excluded.title, subtitle = excluded.subtitle, summary = excluded.summary,
                    artwork_url = excluded.artwork_url, series_title = excluded.series_title, season_number = excluded.season_number,
                    episode_number = excluded.episode_number, episode_title = excluded.episode_title, release_date = excluded.release_date,
                    live_start_date = excluded.live_start_date, live_end_date = excluded.live_end_date
                """, logger: self.logger)
            return true
        }
    }

    // MARK: Playback positions

    public func position(for assetID: String) async throws -> PlaybackPosition? {
        try await positions(for: [assetID])[assetID]
    }

    public func positions(for assetIDs: [String]) async throws -> [String: PlaybackPosition] {
        guard !assetIDs.isEmpty else { return [:] }
        let rows = try await read(
            "read playback positions",
            "SELECT asset_id, position, duration, updated_at FROM playback_position WHERE asset_id = ANY(\(assetIDs))"
        ) { row in
            let (id, position, duration, updated) = try row.decode((String, Double, Double?, Date).self)
            return PlaybackPosition(assetID: id, position: position, duration: duration, updatedAt: updated)
        }
        return Dictionary(rows.map { ($0.assetID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func setPosition(_ position: PlaybackPosition?, for assetID: String) async throws {
        _ = try await write("save the playback position of \(assetID)", changes: { _ in [.assetChanged(assetID)] }) { connection in
            guard try await Self.any(connection.query("SELECT id FROM asset WHERE id = \(assetID)", logger: self.logger)) else {
                throw LibraryError.assetNotFound(assetID)
            }
            if let position {
                try await connection.query(
                    """
                    INSERT INTO playback_position (asset_id, position, duration, updated_at)
                    VALUES (\(assetID), \(position.position), \(position.duration), \(position.updatedAt))
                    ON CONFLICT (asset_id) DO UPDATE SET position = excluded.position, duration = excluded.duration, updated_at = excluded.updated_at
                    """, logger: self.logger)
            } else {
                try await connection.query("DELETE FROM playback_position WHERE asset_id = \(assetID)", logger: self.logger)
            }
            return true
        }
    }

    // MARK: Viewing progress

    public func recordViewing(_ progress: ViewingProgress) async throws {
        let assetID = progress.assetID
        _ = try await write("save the viewing progress of \(assetID)") { connection in
            guard try await Self.any(connection.query("SELECT id FROM asset WHERE id = \(assetID)", logger: self.logger)) else {
                throw LibraryError.assetNotFound(assetID)
            }
            try await connection.query(
                """
                INSERT INTO viewing_progress (viewer, asset_id, position, duration, finished, updated_at)
                VALUES (\(progress.viewer), \(assetID), \(progress.position), \(progress.duration), \(progress.finished), \(progress.updatedAt))
                ON CONFLICT (viewer, asset_id) DO UPDATE SET position = excluded.position, duration = excluded.duration,
                    finished = excluded.finished, updated_at = excluded.updated_at
                """, logger: self.logger)
            return true
        }
    }

    public func viewingHistory(viewer: String, limit: Int) async throws -> [ViewingProgress] {
        try await read(
            "read the viewing progress of \(viewer)",
            """
            SELECT v.asset_id, v.position, v.duration, v.finished, v.updated_at
            FROM viewing_progress v JOIN asset a ON a.id = v.asset_id
            WHERE v.viewer = \(viewer) AND a.deleted_at IS NULL
            ORDER BY v.updated_at DESC LIMIT \(limit)
            """
        ) { row in
            let (id, position, duration, finished, updated) = try row.decode((String, Double, Double?, Bool, Date).self)
            return ViewingProgress(viewer: viewer, assetID: id, position: position, duration: duration, finished: finished, updatedAt: updated)
        }
    }

    public func viewingProgress(viewer: String, assetIDs: [String]) async throws -> [String: ViewingProgress] {
        guard !assetIDs.isEmpty else { return [:] }
        let rows = try await read(
            "read the viewing progress of \(viewer)",
            """
            SELECT v.asset_id, v.position, v.duration, v.finished, v.updated_at
            FROM viewing_progress v JOIN asset a ON a.id = v.asset_id
            WHERE v.viewer = \(viewer) AND a.deleted_at IS NULL AND v.asset_id = ANY(\(assetIDs))
            """
        ) { row in
            let (id, position, duration, finished, updated) = try row.decode((String, Double, Double?, Bool, Date).self)
            return ViewingProgress(viewer: viewer, assetID: id, position: position, duration: duration, finished: finished, updatedAt: updated)
        }
        return Dictionary(rows.map { ($0.assetID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Jobs

    public func jobs(assetID: String?) async throws -> [IngestJob] {
        if let assetID {
            return try await read(
                "list jobs", "SELECT \(unescaped: Self.jobColumns) FROM ingest_job WHERE asset_id = \(assetID) ORDER BY id DESC", Self.job(from:))
        }
        return try await read("list jobs", "SELECT \(unescaped: Self.jobColumns) FROM ingest_job ORDER BY id DESC", Self.job(from:))
    }

    public func latestJobs(for assetIDs: [String]) async throws -> [String: IngestJob] {
        guard !assetIDs.isEmpty else { return [:] }
        let rows = try await read(
            "read the latest jobs",
            """
            SELECT DISTINCT ON (asset_id) \(unescaped: Self.jobColumns) FROM ingest_job WHERE asset_id = ANY(\(assetIDs)) ORDER BY asset_id, id DESC
            """, Self.job(from:))
        return Dictionary(rows.map { ($0.assetID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func job(id: Int64) async throws -> IngestJob? {
        try await read("read job \(id)", "SELECT \(unescaped: Self.jobColumns) FROM ingest_job WHERE id = \(id)", Self.job(from:)).first
    }

    public func save(_ job: IngestJob) async throws {
        guard let id = job.id else { throw LibraryError.invalidRequest("A job must be added before it is saved") }
        _ = try await write("save job \(id)", changes: { _ in [.assetChanged(job.assetID)] }) { connection in
            guard
                try await Self.any(
                    connection.query(
                        """
                        UPDATE ingest_job SET state = \(job.state.rawValue), progress = \(job.progress), message = \(job.message),
                            attempts = \(job.attempts), failure_reason = \(job.failureReason), updated_at = \(Date())
                        WHERE id = \(id) RETURNING id
                        """, logger: self.logger))
            else { throw LibraryError.jobNotFound(id) }
            return true
        }
    }

    /// Claims with `FOR UPDATE SKIP LOCKED`: concurrent claimers each lock a different row
    /// instead of waiting on one another; lease times are the database's clock, so nodes
    /// with skewed clocks still agree on when a lease expires.
    public func claimNextJob(worker: String, lease: Duration) async throws -> IngestJob? {
        try await write("claim a job", changes: { job in job.map { [.assetChanged($0.assetID)] } ?? [] }) { connection -> IngestJob? in
            let rows = try await connection.query(
                """
                UPDATE ingest_job SET state = 'running', attempts = attempts + 1, progress = 0, message = 'Starting', updated_at = now(),
                    lease_owner = \(worker), lease_expires_at = now() + make_interval(secs => \(lease.secondsValue)), run_after = NULL
                WHERE id = (
                    SELECT id FROM ingest_job
                    WHERE (state = 'queued' AND (run_after IS NULL OR run_after <= now()))
                       OR (state = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < now()))
                    ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING \(unescaped: Self.jobColumns)
                """, logger: self.logger)
            for try await row in rows { return try Self.job(from: row) }
            return nil
        }
    }

    public func renewLease(jobID: Int64, worker: String, lease: Duration) async throws -> Bool {
        try await write("renew the lease on job \(jobID)") { connection in
            try await Self.any(
                connection.query(
                    """
                    UPDATE ingest_job SET lease_expires_at = now() + make_interval(secs => \(lease.secondsValue))
                    WHERE id = \(jobID) AND lease_owner = \(worker) AND state = 'running' RETURNING id
                    """, logger: self.logger))
        }
    }

    public func save(_ job: IngestJob, leasedBy worker: String) async throws -> Bool {
        guard let id = job.id else { return false }
        let keepsLease = job.state == .running
        return try await write("save job \(id)", changes: { saved in saved ? [.assetChanged(job.assetID)] : [] }) { connection in
            try await Self.any(
                connection.query(
                    """
                    UPDATE ingest_job SET state = \(job.state.rawValue), progress = \(job.progress), message = \(job.message),
                        attempts = \(job.attempts), failure_reason = \(job.failureReason), updated_at = now(),
                        lease_owner = CASE WHEN \(keepsLease) THEN lease_owner END,
                        lease_expires_at = CASE WHEN \(keepsLease) THEN lease_expires_at END
                    WHERE id = \(id) AND lease_owner = \(worker) AND state = 'running' RETURNING id
                    """, logger: self.logger))
        }
    }

    public func requeue(_ job: IngestJob, after delay: Duration, leasedBy worker: String) async throws -> Bool {
        guard let id = job.id else { return false }
        return try await write("requeue job \(id)", changes: { requeued in requeued ? [.assetChanged(job.assetID)] : [] }) { connection in
            try await Self.any(
                connection.query(
                    """
                    UPDATE ingest_job SET state = 'queued', progress = 0, message = \(job.message), failure_reason = NULL, updated_at = now(),
                        run_after = now() + make_interval(secs => \(delay.secondsValue)), lease_owner = NULL, lease_expires_at = NULL,
                        attempts = \(job.attempts)
                    WHERE id = \(id) AND lease_owner = \(worker) AND state = 'running' RETURNING id
                    """, logger: self.logger))
        }
    }

    public func requeueInterruptedJobs() async throws {
        _ = try await write("requeue interrupted jobs") { connection in
            try await connection.query("UPDATE ingest_job SET state = 'queued' WHERE state = 'running'", logger: self.logger)
            return true
        }
    }

    public func retry(jobID: Int64) async throws -> IngestJob {
        try await write("retry job \(jobID)", changes: { job in [.assetChanged(job.assetID)] }) { connection -> IngestJob in
            var found: IngestJob?
            for try await row in try await connection.query(
                "SELECT \(unescaped: Self.jobColumns) FROM ingest_job WHERE id = \(jobID) FOR UPDATE", logger: self.logger)
            {
                found = try Self.job(from: row)
            }
            guard var job = found else { throw LibraryError.jobNotFound(jobID) }
            guard job.state == .failed else { throw LibraryError.jobNotRetryable(jobID, state: job.state.rawValue) }
            job.state = .queued
            // A retry starts afresh: the attempts that failed do not count against it.
            job.attempts = 0
            job.progress = 0
            job.message = nil
            job.failureReason = nil
            job.updatedAt = Date()
            try await connection.query(
                """
                UPDATE ingest_job SET state = 'queued', progress = 0, message = NULL, failure_reason = NULL, attempts = 0,
                    updated_at = \(job.updatedAt)
                WHERE id = \(jobID)
                """, logger: self.logger)
            try await connection.query("UPDATE asset SET status = 'pending' WHERE id = \(job.assetID)", logger: self.logger)
            return job
        }
    }

    // MARK: Interstitials

    public func interstitials(for assetID: String) async throws -> [ScheduledInterstitial] {
        try await read(
            "list interstitials",
            """
            SELECT id, asset_id, interstitial_asset_id, time, cue, resumption_offset, restricted FROM interstitial
            WHERE asset_id = \(assetID) ORDER BY time, id
            """
        ) { row in
            let (id, asset, interstitial, time, cue, offset, restricted) = try row.decode((Int64, String, String, Double, String, Double, Bool).self)
            var scheduled = ScheduledInterstitial(
                assetID: asset, interstitialAssetID: interstitial, time: time, cue: cue,
                resumptionOffset: offset, restricted: restricted)
            scheduled.id = id
            return scheduled
        }
    }

    public func schedule(_ i: ScheduledInterstitial) async throws {
        _ = try await write("schedule an interstitial in \(i.assetID)") { connection in
            try await connection.query(
                """
                INSERT INTO interstitial (asset_id, interstitial_asset_id, time, cue, resumption_offset, restricted)
                VALUES (\(i.assetID), \(i.interstitialAssetID), \(i.time), \(i.cue), \(i.resumptionOffset), \(i.restricted))
                """, logger: self.logger)
            return true
        }
    }

    // MARK: Settings

    public func playerSettings() async throws -> PlayerSettings {
        guard let text = try await read("read player settings", "SELECT value FROM setting WHERE key = 'player'", { try $0.decode(String.self) }).first else {
            return PlayerSettings()
        }
        return (try? JSONDecoder().decode(PlayerSettings.self, from: Data(text.utf8))) ?? PlayerSettings()
    }

    public func setPlayerSettings(_ settings: PlayerSettings) async throws {
        try settings.validate()
        let text = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        _ = try await write("save player settings") { connection in
            try await connection.query(
                """
                INSERT INTO setting (key, value) VALUES ('player', \(text)) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, logger: self.logger)
            return true
        }
    }
}

/// A PostgreSQL operation that failed, with what the store was doing and the driver's error
/// (for a server error, its SQLSTATE and message) kept as the cause.
public struct PostgreSQLStoreError: Error, CustomStringConvertible {
    public let operation: String
    public let underlying: any Error

    /// The server did not answer within `limit`.
    public struct TimedOut: Error, CustomStringConvertible {
        public let limit: Duration
        public var description: String { "no answer within \(limit.components.seconds) s (is the server running, and the address right?)" }
    }

    /// Whether the server was never reached (no answer in time, or no connection at all), as
    /// opposed to a server that answered with an error: a command exits "unavailable" then.
    public var isUnreachable: Bool {
        if underlying is TimedOut { return true }
        if let error = underlying as? PSQLError {
            if [.connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown].contains(error.code) {
                return true
            }
            // The server is shutting down or starting up (57P01–57P03), or the connection failed (class 08).
            if let state = error.serverInfo?[.sqlState] { return state.hasPrefix("57P") || state.hasPrefix("08") }
        }
        if let transaction = underlying as? PostgresTransactionError {
            let inner = transaction.beginError ?? transaction.closureError ?? transaction.commitError
            if let inner { return PostgreSQLStoreError(operation: operation, underlying: inner).isUnreachable }
        }
        return false
    }

    public var description: String {
        if let error = underlying as? PSQLError {
            let server = error.serverInfo.map { info in
                [info[.sqlState].map { "SQLSTATE \($0)" }, info[.message]].compactMap { $0 }.joined(separator: ": ")
            }
            return "PostgreSQL could not \(operation): \(server ?? String(describing: error.code))"
        }
        return "PostgreSQL could not \(operation): \(underlying)"
    }
}

/// A server that was never reached is an outage: the API answers 503 with a sentence.
extension PostgreSQLStoreError: ServiceUnavailableConvertible {
    public var unavailable: ServiceUnavailable? {
        isUnreachable ? ServiceUnavailable(.database, detail: description) : nil
    }
}

/// What a `NOTIFY` on the library channel carries: which process made the change, and the change.
struct ChangeNotice: Codable {
    var origin: String
    var kind: String
    var assetID: String

    init(origin: String, change: LibraryChange) {
        self.origin = origin
        switch change {
        case .assetChanged(let id):
            kind = "changed"
            assetID = id
        case .assetRemoved(let id):
            kind = "removed"
            assetID = id
        }
    }

    var change: LibraryChange? {
        switch kind {
        case "changed": .assetChanged(assetID)
        case "removed": .assetRemoved(assetID)
        default: nil
        }
    }

    var payload: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self) }
}
