import Foundation
import Library
import PostgresNIO
public import VisualAnalysis

/// The frame-text search index in PostgreSQL, shared by every node and worker of a cluster
/// (tables `frame_text_asset` and `frame_text_entry`, migration 10): an asset is read for its
/// text by one indexer, and a search through any node finds it.
///
/// An indexer claims an asset in its `frame_text_asset` row (`claimed_by`, `claim_expires_at`,
/// by the database's clock) with one `INSERT … ON CONFLICT DO UPDATE … WHERE`, which PostgreSQL
/// decides under the row's lock, so of two indexers claiming at once exactly one gets it. Both
/// tables reference the asset, so an asset deleted for good takes its index with it.
public final class PostgreSQLFrameTextIndex: FrameTextIndex {
    let database: PostgreSQLConnection

    /// Uses the library store's connections and schema (migrations run when it opened).
    public init(sharing library: PostgreSQLLibraryStore) {
        database = PostgreSQLConnection(library)
    }

    public var isShared: Bool { true }

    public func replaceIndex(assetID: String, with frames: [FrameTextStore.IndexedFrame]) async throws {
        let kept = frames.filter { !$0.text.isEmpty }
        let (times, ends, texts) = (kept.map(\.time), kept.map(\.endTime), kept.map(\.text))
        let logger = database.logger
        try await database.transaction("index the frame text of \(assetID)") { connection in
            try await connection.query("DELETE FROM frame_text_entry WHERE asset_id = \(assetID)", logger: logger)
            try await connection.query(
                """
                INSERT INTO frame_text_entry (asset_id, time, end_time, text)
                SELECT \(assetID), t, e, x FROM unnest(\(times)::double precision[], \(ends)::double precision[], \(texts)::text[]) AS f(t, e, x)
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO frame_text_asset (asset_id, frames, indexed_at) VALUES (\(assetID), \(frames.count), now())
                ON CONFLICT (asset_id) DO UPDATE SET frames = excluded.frames, indexed_at = excluded.indexed_at,
                    claimed_by = NULL, claim_expires_at = NULL
                """, logger: logger)
        }
    }

    public func isIndexed(assetID: String) async throws -> Bool {
        try await database.run(
            "read whether \(assetID) is indexed", "SELECT 1 FROM frame_text_asset WHERE asset_id = \(assetID) AND indexed_at IS NOT NULL") > 0
    }

    public func indexedAssetIDs() async throws -> Set<String> {
        Set(
            try await database.rows("list indexed assets", "SELECT asset_id FROM frame_text_asset WHERE indexed_at IS NOT NULL") {
                try $0.decode(String.self)
            })
    }

    public func forgetIndex(assetID: String) async throws {
        let logger = database.logger
        try await database.transaction("forget the frame text of \(assetID)") { connection in
            try await connection.query("DELETE FROM frame_text_entry WHERE asset_id = \(assetID)", logger: logger)
            try await connection.query("DELETE FROM frame_text_asset WHERE asset_id = \(assetID)", logger: logger)
        }
    }

    /// A case-insensitive substring match (`ILIKE`), in asset and time order: no trigram index
    /// (`pg_trgm` is an extension the database's owner may not be allowed to create), so a search
    /// reads every indexed line, which is fine for the text of a library's frames.
    public func search(_ query: String, limit: Int) async throws -> [FrameTextStore.Hit] {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return [] }
        return try await database.rows(
            "search frame text",
            """
            SELECT asset_id, time, end_time, text FROM frame_text_entry WHERE text ILIKE \(LibrarySearch.likePattern(trimmed)) ESCAPE '\\'
            ORDER BY asset_id, time LIMIT \(limit)
            """
        ) { row in
            let (assetID, time, end, text) = try row.decode((String, Double, Double, String).self)
            return FrameTextStore.Hit(assetID: assetID, time: time, endTime: end, frameText: text, query: trimmed)
        }
    }

    public func claimIndexing(assetID: String, indexer: String, lease: Duration) async throws -> Bool {
        try await database.run(
            "claim the indexing of \(assetID)",
            """
            INSERT INTO frame_text_asset (asset_id, claimed_by, claim_expires_at)
            VALUES (\(assetID), \(indexer), now() + make_interval(secs => \(lease.secondsValue)))
            ON CONFLICT (asset_id) DO UPDATE SET claimed_by = excluded.claimed_by, claim_expires_at = excluded.claim_expires_at
            WHERE frame_text_asset.indexed_at IS NULL
                AND (frame_text_asset.claim_expires_at IS NULL OR frame_text_asset.claim_expires_at < now())
            RETURNING asset_id
            """) > 0
    }

    public func renewIndexingClaim(assetID: String, indexer: String, lease: Duration) async throws -> Bool {
        try await database.run(
            "renew the claim on indexing \(assetID)",
            """
            UPDATE frame_text_asset SET claim_expires_at = now() + make_interval(secs => \(lease.secondsValue))
            WHERE asset_id = \(assetID) AND claimed_by = \(indexer) AND indexed_at IS NULL RETURNING asset_id
            """) > 0
    }

    public func releaseIndexingClaim(assetID: String, indexer: String) async throws {
        try await database.run(
            "release the claim on indexing \(assetID)",
            """
            UPDATE frame_text_asset SET claimed_by = NULL, claim_expires_at = NULL
            WHERE asset_id = \(assetID) AND claimed_by = \(indexer) RETURNING asset_id
            """)
    }
}
