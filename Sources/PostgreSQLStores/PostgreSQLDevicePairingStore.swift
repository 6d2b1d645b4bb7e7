public import DeviceLink
import Foundation
import PostgresNIO

/// The server's device identity and its trusted devices in PostgreSQL, shared by every server
/// node: all nodes present one identity to nearby devices, and a phone paired through node A
/// is trusted by node B. Changes are read, applied and written inside one transaction holding
/// the row's lock, so two nodes pairing at once both keep their device.
public final class PostgreSQLDevicePairingStore: DevicePairingStore {
    let database: PostgreSQLConnection
    /// Which row this store uses (one per server deployment; tests use their own).
    let scope: String

    /// Uses the library store's connections and schema (migrations run when it opened).
    public init(sharing library: PostgreSQLLibraryStore, scope: String = "server") {
        database = PostgreSQLConnection(library)
        self.scope = scope
    }

    public var isShared: Bool { true }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    public func identity(orCreate make: @Sendable () -> StoredIdentity) async throws -> StoredIdentity {
        let made = String(decoding: try JSONEncoder().encode(make()), as: UTF8.self)
        let stored = try await database.transaction("store the device identity") { connection -> String in
            try await connection.query(
                "INSERT INTO device_identity (scope, body) VALUES (\(scope), \(made)) ON CONFLICT (scope) DO NOTHING", logger: database.logger)
            for try await body in try await connection.query("SELECT body FROM device_identity WHERE scope = \(scope)", logger: database.logger)
                .decode(String.self)
            {
                return body
            }
            return made
        }
        return try JSONDecoder().decode(StoredIdentity.self, from: Data(stored.utf8))
    }

    public func trust() async throws -> DeviceTrustRecord? {
        try await database.rows("read trusted devices", "SELECT body FROM device_trust WHERE scope = \(scope)") { row in
            try Self.decoder.decode(DeviceTrustRecord.self, from: Data(try row.decode(String.self).utf8))
        }.first
    }

    public func modifyTrust(initial: DeviceTrustRecord, _ change: @Sendable (inout DeviceTrustRecord) -> Void) async throws -> DeviceTrustRecord {
        let logger = database.logger
        let initialBody = String(decoding: try Self.encoder.encode(initial), as: UTF8.self)
        return try await database.transaction("save trusted devices") { connection in
            try await connection.query(
                "INSERT INTO device_trust (scope, body) VALUES (\(scope), \(initialBody)) ON CONFLICT (scope) DO NOTHING", logger: logger)
            var record = initial
            for try await body in try await connection.query("SELECT body FROM device_trust WHERE scope = \(scope) FOR UPDATE", logger: logger)
                .decode(String.self)
            {
                record = try Self.decoder.decode(DeviceTrustRecord.self, from: Data(body.utf8))
            }
            change(&record)
            let body = String(decoding: try Self.encoder.encode(record), as: UTF8.self)
            try await connection.query("UPDATE device_trust SET body = \(body), updated_at = now() WHERE scope = \(scope)", logger: logger)
            return record
        }
    }
}
