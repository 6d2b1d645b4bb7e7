import Foundation
public import Library
import PostgresNIO

/// Authored interstitial events on PostgreSQL: the `interstitial_event` table, one row per
/// event with the event as JSON, read in timeline order; validation runs inside the same
/// transaction as the write, under a row lock on the asset, so two nodes can't store
/// overlapping breaks at once.
extension PostgreSQLLibraryStore {
    public func authoredInterstitials(for assetID: String) async throws -> [AuthoredInterstitial] {
        try await write("list the interstitial events of \(assetID)") { connection in
            try await self.adoptLegacyInterstitials(of: assetID, on: connection)
            return try await self.authoredInterstitials(of: assetID, on: connection)
        }
    }

    public func saveAuthoredInterstitial(
        _ event: AuthoredInterstitial, replacing: Bool,
        validate: @Sendable (AuthoredInterstitial, [AuthoredInterstitial]) throws -> AuthoredInterstitial
    ) async throws -> AuthoredInterstitial {
        try await write("save an interstitial event of \(event.assetID)") { connection in
            try await connection.query("SELECT id FROM asset WHERE id = \(event.assetID) FOR UPDATE", logger: self.logger)
            try await self.adoptLegacyInterstitials(of: event.assetID, on: connection)
            let existing = try await self.authoredInterstitials(of: event.assetID, on: connection)
            if replacing, !existing.contains(where: { $0.id == event.id }) {
                throw InterstitialValidationError.notFound(event.id)
            }
            var stored = try validate(event, existing.filter { $0.id != event.id })
            stored.assetID = event.assetID
            stored.id = replacing ? event.id : "ev-" + UUID().uuidString.prefix(8).lowercased()
            try await self.upsert(stored, on: connection)
            return stored
        }
    }

    public func deleteAuthoredInterstitial(id: String, assetID: String) async throws {
        try await write("delete interstitial event \(id)") { connection in
            try await self.adoptLegacyInterstitials(of: assetID, on: connection)
            var deleted = 0
            for try await _ in try await connection.query(
                "DELETE FROM interstitial_event WHERE id = \(id) AND asset_id = \(assetID) RETURNING id", logger: self.logger)
            {
                deleted += 1
            }
            if deleted == 0 { throw InterstitialValidationError.notFound(id) }
        }
    }

    private func authoredInterstitials(of assetID: String, on connection: PostgresConnection) async throws -> [AuthoredInterstitial] {
        var events: [AuthoredInterstitial] = []
        for try await body in try await connection.query(
            "SELECT body FROM interstitial_event WHERE asset_id = \(assetID) ORDER BY position, created_at, id", logger: logger
        ).decode(String.self) {
            events.append(try JSONDecoder().decode(AuthoredInterstitial.self, from: Data(body.utf8)))
        }
        return events
    }

    private func upsert(_ event: AuthoredInterstitial, on connection: PostgresConnection) async throws {
        let body = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        try await connection.query(
            """
            INSERT INTO interstitial_event (id, asset_id, position, body) VALUES (\(event.id), \(event.assetID), \(event.sortPosition), \(body))
            ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position, body = EXCLUDED.body
            """, logger: logger)
    }

    /// Moves the asset's rows of the older `interstitial` table into `interstitial_event`.
    private func adoptLegacyInterstitials(of assetID: String, on connection: PostgresConnection) async throws {
        var legacy: [(ScheduledInterstitial, Double?)] = []
        for try await (id, interstitial, time, cue, offset, restricted, duration) in try await connection.query(
            """
            SELECT i.id, i.interstitial_asset_id, i.time, i.cue, i.resumption_offset, i.restricted, a.duration
            FROM interstitial i LEFT JOIN asset a ON a.id = i.interstitial_asset_id
            WHERE i.asset_id = \(assetID) ORDER BY i.time, i.id
            """, logger: logger
        ).decode((Int64, String, Double, String, Double, Bool, Double?).self) {
            var row = ScheduledInterstitial(
                assetID: assetID, interstitialAssetID: interstitial, time: time, cue: cue,
                resumptionOffset: offset, restricted: restricted)
            row.id = id
            legacy.append((row, duration))
        }
        guard !legacy.isEmpty else { return }
        for (row, duration) in legacy { try await upsert(AuthoredInterstitial(adopting: row, adDuration: duration), on: connection) }
        try await connection.query("DELETE FROM interstitial WHERE asset_id = \(assetID)", logger: logger)
    }
}
