public import Foundation
public import Library
import PostgresNIO

/// The in-app downloads of every server node in PostgreSQL (`download_record`), so any node
/// lists and controls every download while each runs on the one node that holds it.
///
/// A row carries the download's record as opaque JSON (the server decodes it), the node that
/// holds it, until when (`lease_until`, renewed while that node is alive), and a control
/// another node asked for (`wanted`). Every change is announced with a `NOTIFY` on
/// `marquee_downloads` naming the download, so other nodes refresh what they show and the
/// holder carries out what was asked. A resumable download whose holder's lease lapsed (the
/// node died) is claimed by another node, like an ingest job.
public final class PostgreSQLDownloadRows: SharedDownloadRecords {
    let database: PostgreSQLConnection
    /// This node's name in `node` (unique per process).
    public let node: String
    /// How long a node holds its downloads without renewing.
    public let lease: Duration
    public static let channel = "marquee_downloads"

    /// Uses the library store's connections and schema (migrations run when it opened).
    public init(sharing library: PostgreSQLLibraryStore, node: String = UUID().uuidString.lowercased(), lease: Duration = .seconds(15)) {
        database = PostgreSQLConnection(library)
        self.node = node
        self.lease = lease
    }

    var leaseSeconds: Double { Double(lease.components.seconds) + Double(lease.components.attoseconds) / 1e18 }

    static let columns = "id, node, body, resumable, wanted, lease_until < now()"

    static func row(_ row: PostgresRow) throws -> SharedDownloadRecord {
        let (id, node, body, resumable, wanted, lapsed) = try row.decode((String, String, String, Bool, String?, Bool).self)
        return SharedDownloadRecord(id: id, node: node, body: body, resumable: resumable, wanted: wanted, leaseLapsed: lapsed)
    }

    /// Every download, oldest first.
    public func all() async throws -> [SharedDownloadRecord] {
        try await database.rows("list downloads", "SELECT \(unescaped: Self.columns) FROM download_record ORDER BY created_at, id", Self.row)
    }

    public func record(id: String) async throws -> SharedDownloadRecord? {
        try await database.rows("read download \(id)", "SELECT \(unescaped: Self.columns) FROM download_record WHERE id = \(id)", Self.row).first
    }

    /// Writes the download as held by this node (renewing its lease). False when another node
    /// holds it now (it was claimed after this node's lease lapsed): this node must let it go.
    @discardableResult
    public func save(id: String, body: String, resumable: Bool) async throws -> Bool {
        let (node, seconds) = (node, leaseSeconds)
        return try await database.transaction("save download \(id)") { connection in
            let written = try await PostgreSQLConnection.count(
                try await connection.query(
                    """
                    INSERT INTO download_record (id, node, body, resumable, lease_until)
                    VALUES (\(id), \(node), \(body), \(resumable), now() + make_interval(secs => \(seconds)))
                    ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, resumable = EXCLUDED.resumable,
                        lease_until = EXCLUDED.lease_until
                    WHERE download_record.node = EXCLUDED.node
                    RETURNING id
                    """, logger: database.logger))
            if written > 0 { try await self.announce(id, on: connection) }
            return written > 0
        }
    }

    /// Removes the download's row (any node may, once its holder has stopped it or is gone).
    public func delete(id: String) async throws {
        try await database.transaction("delete download \(id)") { connection in
            try await connection.query("DELETE FROM download_record WHERE id = \(id)", logger: database.logger)
            try await self.announce(id, on: connection)
        }
    }

    /// Asks the holder of `id` to carry out `command`; false when there is no such download.
    public func want(_ command: String, for id: String) async throws -> Bool {
        try await database.transaction("ask for \(command) of download \(id)") { connection in
            let changed = try await PostgreSQLConnection.count(
                try await connection.query(
                    "UPDATE download_record SET wanted = \(command) WHERE id = \(id) RETURNING id", logger: database.logger))
            if changed > 0 { try await self.announce(id, on: connection) }
            return changed > 0
        }
    }

    /// The controls asked for this node's downloads, each handed out once.
    public func takeWanted() async throws -> [(id: String, command: String)] {
        try await database.rows(
            "take asked-for download controls",
            """
            UPDATE download_record AS d SET wanted = NULL
            FROM (SELECT id, wanted FROM download_record WHERE node = \(node) AND wanted IS NOT NULL FOR UPDATE) AS asked
            WHERE d.id = asked.id
            RETURNING d.id, asked.wanted
            """
        ) { row in try row.decode((String, String).self) }
    }

    public func claim(id: String) async throws -> SharedDownloadRecord? {
        let rows = try await database.rows(
            "claim download \(id)",
            """
            UPDATE download_record SET node = \(node), lease_until = now() + make_interval(secs => \(leaseSeconds))
            WHERE id = \(id) AND lease_until < now()
            RETURNING id, node, body, resumable, wanted, false
            """, Self.row)
        for row in rows { try await database.transaction("announce download \(row.id)") { try await self.announce(row.id, on: $0) } }
        return rows.first
    }

    /// Renews this node's hold on its downloads.
    public func renewLeases() async throws {
        try await database.run(
            "renew download leases",
            "UPDATE download_record SET lease_until = now() + make_interval(secs => \(leaseSeconds)) WHERE node = \(node) RETURNING id")
    }

    /// Takes over the resumable downloads whose holder's lease lapsed; returns them (now held
    /// by this node). Each is claimed by exactly one node.
    public func claimAbandoned() async throws -> [SharedDownloadRecord] {
        let rows = try await database.rows(
            "claim abandoned downloads",
            """
            UPDATE download_record SET node = \(node), lease_until = now() + make_interval(secs => \(leaseSeconds))
            WHERE id IN (SELECT id FROM download_record WHERE resumable AND lease_until < now() FOR UPDATE SKIP LOCKED)
            RETURNING id, node, body, resumable, wanted, false
            """, Self.row)
        for row in rows { try await database.transaction("announce download \(row.id)") { try await self.announce(row.id, on: $0) } }
        return rows
    }

    /// The downloads another node changed (or asked this node to control), by id, from now
    /// on; listens on its own pooled connection, reconnecting after a drop, until the stream
    /// is dropped. After a drop it yields `nil`: anything may have changed meanwhile.
    public func changes() -> AsyncStream<String?> {
        let (stream, continuation) = AsyncStream<String?>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let (client, node) = (database.client, node)
        let task = Task {
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notices in
                            for try await notice in notices {
                                let parts = notice.payload.split(separator: " ", maxSplits: 1)
                                guard parts.count == 2, parts[0] != node else { continue }
                                continuation.yield(String(parts[1]))
                            }
                        }
                    }
                } catch {
                    if Task.isCancelled { break }
                    continuation.yield(nil)
                    try? await Task.sleep(for: .milliseconds(500))
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// `NOTIFY` naming the node that made the change and the download.
    func announce(_ id: String, on connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_notify(\(Self.channel), \(node + " " + id))", logger: database.logger)
    }
}
