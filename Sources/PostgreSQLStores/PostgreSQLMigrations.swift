import Library
import Logging
import PostgresNIO

/// The library's PostgreSQL schema, one numbered migration per change; never edit a shipped one.
///
/// Applied in order inside one transaction that holds an advisory lock, so several nodes
/// starting together against an empty database migrate it once; `schema_migration` records
/// what ran. Column names are snake_case; the rows are the same as SQLite's.
enum PostgreSQLMigrations {
    struct Migration: Sendable {
        let version: Int
        let name: String
        let statements: [String]

        /// How `marquee migrate` and the newer-database refusal name it.
        var identifier: String { "\(version): \(name)" }
    }

    /// Any number, the same for every node: serialises migrations across processes.
    static let advisoryLockKey: Int64 = 0x6D61_7271_7565_65  // "marquee"

    static let all: [Migration] = [
        Migration(
            version: 1, name: "assets, overrides, positions, jobs, interstitials, settings",
            statements: [
                """
                CREATE TABLE asset (
                    id text PRIMARY KEY,
                    seq bigserial NOT NULL,
                    title text NOT NULL,
                    subtitle text,
                    summary text,
                    duration double precision,
                    width bigint,
                    height bigint,
                    source_path text,
                    source_missing boolean NOT NULL DEFAULT false,
                    status text NOT NULL,
                    role text NOT NULL DEFAULT 'feature',
                    badges text[] NOT NULL DEFAULT '{}',
                    created_at timestamptz NOT NULL,
                    series_title text,
                    season_number bigint,
                    episode_number bigint,
                    episode_title text,
                    release_date text,
                    live_start_date timestamptz,
                    live_end_date timestamptz,
                    deleted_at timestamptz,
                    is_protected boolean NOT NULL DEFAULT false
                )
                """,
                "CREATE INDEX asset_on_deleted_at ON asset (deleted_at)",
                "CREATE INDEX asset_on_created_at ON asset (created_at DESC, seq DESC)",
                """
                CREATE TABLE metadata_override (
                    asset_id text PRIMARY KEY REFERENCES asset (id) ON DELETE CASCADE,
                    title text, subtitle text, summary text, artwork_url text,
                    series_title text, season_number bigint, episode_number bigint, episode_title text,
                    release_date text, live_start_date timestamptz, live_end_date timestamptz
                )
                """,
                """
                CREATE TABLE playback_position (
                    asset_id text PRIMARY KEY REFERENCES asset (id) ON DELETE CASCADE,
                    position double precision NOT NULL,
                    duration double precision,
                    updated_at timestamptz NOT NULL
                )
                """,
                """
                CREATE TABLE ingest_job (
                    id bigserial PRIMARY KEY,
                    asset_id text NOT NULL REFERENCES asset (id) ON DELETE CASCADE,
                    state text NOT NULL,
                    progress double precision NOT NULL DEFAULT 0,
                    message text,
                    attempts bigint NOT NULL DEFAULT 0,
                    failure_reason text,
                    created_at timestamptz NOT NULL,
                    updated_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX ingest_job_on_asset_id ON ingest_job (asset_id)",
                "CREATE INDEX ingest_job_queued ON ingest_job (id) WHERE state = 'queued'",
                """
                CREATE TABLE interstitial (
                    id bigserial PRIMARY KEY,
                    asset_id text NOT NULL REFERENCES asset (id) ON DELETE CASCADE,
                    interstitial_asset_id text NOT NULL REFERENCES asset (id) ON DELETE CASCADE,
                    time double precision NOT NULL,
                    cue text NOT NULL DEFAULT 'none',
                    resumption_offset double precision NOT NULL DEFAULT 0,
                    restricted boolean NOT NULL DEFAULT true
                )
                """,
                "CREATE INDEX interstitial_on_asset_id ON interstitial (asset_id)",
                "CREATE TABLE setting (key text PRIMARY KEY, value text NOT NULL)",
            ]),
        Migration(
            version: 2, name: "job leases, heartbeats and retry times",
            statements: [
                "ALTER TABLE ingest_job ADD COLUMN lease_owner text, ADD COLUMN lease_expires_at timestamptz, ADD COLUMN run_after timestamptz",
                "CREATE INDEX ingest_job_running ON ingest_job (lease_expires_at) WHERE state = 'running'",
            ]),
        Migration(
            version: 3, name: "authored interstitial events",
            statements: [
                """
                CREATE TABLE interstitial_event (
                    id text PRIMARY KEY,
                    asset_id text NOT NULL REFERENCES asset (id) ON DELETE CASCADE,
                    position double precision NOT NULL,
                    body text NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
                )
                """,
                "CREATE INDEX interstitial_event_on_asset_id ON interstitial_event (asset_id, position)",
            ]),
        Migration(
            version: 4, name: "accounts, sign-in sessions and API tokens",
            statements: [
                """
                CREATE TABLE account (
                    id bigserial PRIMARY KEY,
                    name text NOT NULL,
                    role text NOT NULL,
                    password_hash text NOT NULL,
                    created_at timestamptz NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX account_on_lower_name ON account (lower(name))",
                """
                CREATE TABLE credential (
                    id text PRIMARY KEY,
                    account_id bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    kind text NOT NULL,
                    secret_digest bytea NOT NULL UNIQUE,
                    label text NOT NULL,
                    created_at timestamptz NOT NULL,
                    last_used_at timestamptz NOT NULL,
                    expires_at timestamptz
                )
                """,
                "CREATE INDEX credential_on_account_id ON credential (account_id, kind)",
            ]),
        Migration(
            version: 5, name: "live activities, push tokens, push-to-start tokens, broadcast channels, push outcomes",
            statements: [
                // The activity itself as JSON (exactly as the model encodes it); the columns beside it are for ordering.
                "CREATE TABLE live_activity (id text PRIMARY KEY, created_at timestamptz NOT NULL, body text NOT NULL)",
                """
                CREATE TABLE activity_push_token (
                    token text PRIMARY KEY,
                    activity_id text NOT NULL REFERENCES live_activity (id) ON DELETE CASCADE,
                    device_id text NOT NULL,
                    environment text NOT NULL,
                    created_at timestamptz NOT NULL,
                    backoff_until timestamptz
                )
                """,
                "CREATE INDEX activity_push_token_on_activity_id ON activity_push_token (activity_id)",
                "CREATE INDEX activity_push_token_on_device_id ON activity_push_token (device_id)",
                """
                CREATE TABLE push_to_start_token (
                    token text PRIMARY KEY,
                    device_id text NOT NULL,
                    attributes_type text NOT NULL,
                    environment text NOT NULL,
                    created_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX push_to_start_token_on_device_id ON push_to_start_token (device_id)",
                """
                CREATE TABLE broadcast_channel (
                    id text PRIMARY KEY,
                    environment text NOT NULL,
                    storage_policy bigint NOT NULL,
                    activity_id text,
                    created_at timestamptz NOT NULL
                )
                """,
                """
                CREATE TABLE push_outcome (
                    id bigserial PRIMARY KEY,
                    activity_id text,
                    target text NOT NULL,
                    event text NOT NULL,
                    priority bigint NOT NULL,
                    result text NOT NULL,
                    status bigint,
                    reason text,
                    apns_id text,
                    attempts bigint NOT NULL,
                    at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX push_outcome_on_activity_id ON push_outcome (activity_id, id)",
            ]),
        Migration(
            version: 6, name: "the server's device identity and trusted devices",
            statements: [
                // One row per store ("server"): the identity every node presents, and the trust record as JSON.
                "CREATE TABLE device_identity (scope text PRIMARY KEY, body text NOT NULL)",
                "CREATE TABLE device_trust (scope text PRIMARY KEY, body text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())",
            ]),
        Migration(
            version: 7, name: "in-app downloads shared by every node",
            statements: [
                // body: the download's record as JSON (the server's `DownloadRecord`); node: the one
                // running it, holding it while lease_until is ahead; wanted: a pause, resume, cancel,
                // retry or delete asked for through another node, for the holder to carry out.
                """
                CREATE TABLE download_record (
                    id text PRIMARY KEY,
                    node text NOT NULL,
                    body text NOT NULL,
                    resumable boolean NOT NULL,
                    wanted text,
                    lease_until timestamptz NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now())
                """
            ]),
        Migration(
            version: 8, name: "subtitle files added to assets",
            statements: [
                """
                CREATE TABLE subtitle_file (
                    id text PRIMARY KEY,
                    asset_id text NOT NULL REFERENCES asset (id) ON DELETE CASCADE,
                    language text,
                    label text NOT NULL,
                    format text NOT NULL,
                    is_forced boolean NOT NULL DEFAULT false,
                    cue_count bigint NOT NULL,
                    web_vtt text NOT NULL,
                    created_at timestamptz NOT NULL)
                """,
                "CREATE INDEX subtitle_file_on_asset_id ON subtitle_file (asset_id, created_at)",
            ]),
        Migration(
            version: 9, name: "viewing progress per viewer (home screen)",
            statements: [
                """
                CREATE TABLE viewing_progress (
                    viewer text NOT NULL,
                    asset_id text NOT NULL REFERENCES asset (id) ON DELETE CASCADE,
                    position double precision NOT NULL,
                    duration double precision,
                    finished boolean NOT NULL DEFAULT false,
                    updated_at timestamptz NOT NULL,
                    PRIMARY KEY (viewer, asset_id))
                """,
                "CREATE INDEX viewing_progress_on_viewer_updated_at ON viewing_progress (viewer, updated_at DESC)",
            ]),
        Migration(
            version: 10, name: "Live Text frame-text index shared by every node",
            statements: [
                // One row per asset being or done indexing: indexed_at once its text is in
                // frame_text_entry; claimed_by holds it for one indexer until claim_expires_at.
                """
                CREATE TABLE frame_text_asset (
                    asset_id text PRIMARY KEY REFERENCES asset (id) ON DELETE CASCADE,
                    frames bigint NOT NULL DEFAULT 0,
                    indexed_at timestamptz,
                    claimed_by text,
                    claim_expires_at timestamptz)
                """,
                """
                CREATE TABLE frame_text_entry (
                    id bigserial PRIMARY KEY,
                    asset_id text NOT NULL REFERENCES asset (id) ON DELETE CASCADE,
                    time double precision NOT NULL,
                    end_time double precision NOT NULL,
                    text text NOT NULL)
                """,
                "CREATE INDEX frame_text_entry_on_asset_id ON frame_text_entry (asset_id, time)",
            ]),
    ]

    /// Brings the database up to the newest version; returns the versions it applied. Throws
    /// `NewerSchemaError`, having changed nothing, when the database has a version this one does not know.
    @discardableResult
    static func migrate(_ client: PostgresClient, logger: Logger) async throws -> [Int] {
        do {
            return try await transaction(client, logger: logger)
        } catch let error as PostgresTransactionError {
            if let newer = error.closureError as? NewerSchemaError { throw newer }
            throw error
        }
    }

    private static func transaction(_ client: PostgresClient, logger: Logger) async throws -> [Int] {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(advisoryLockKey))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migration (
                    version bigint PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var applied = Set<Int>()
            var unknown: [String] = []
            let known = Set(all.map(\.version))
            let rows = try await connection.query("SELECT version, name FROM schema_migration ORDER BY version", logger: logger)
            for try await (version, name) in rows.decode((Int, String).self) {
                applied.insert(version)
                if !known.contains(version) { unknown.append("\(version): \(name)") }
            }
            // A database a newer version migrated: refuse to start (docs/deploying.md, "Upgrades").
            guard unknown.isEmpty else {
                throw NewerSchemaError(database: "the database", unknown: unknown, newestKnown: all.last?.identifier ?? "none")
            }
            var ran: [Int] = []
            for migration in all where !applied.contains(migration.version) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO schema_migration (version, name) VALUES (\(migration.version), \(migration.name))", logger: logger)
                ran.append(migration.version)
            }
            return ran
        }
    }
}
