import Foundation
import GRDB
import PostgreSQLStores
import ServiceTesting
import Testing

@testable import Library

/// The rule for two versions on one database (docs/deploying.md, "Upgrades"): migrating
/// reports what it applied and applies nothing twice; a database with a migration this
/// version does not know (a newer version migrated it) is refused with a sentence naming it.
@Suite("Schema upgrades: migrate, and refuse a newer database")
struct SchemaUpgradeTests {
    @Test func sqliteMigratesOnceAndRefusesAFileANewerVersionMigrated() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-schema-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("library.sqlite")
        let known = SQLiteLibraryStore.migrationIdentifiers

        // No file yet: nothing to refuse. Then every migration once, and none the second time.
        try SQLiteSchema.refuseNewer(at: url, known: known)
        #expect(try SQLiteLibraryStore.migrate(url: url) == known)
        #expect(try SQLiteLibraryStore.migrate(url: url) == [])
        try SQLiteSchema.refuseNewer(at: url, known: known)
        // A store of this version opens the migrated file and keeps its rows.
        _ = try await SQLiteLibraryStore(url: url).insert(Asset(title: "Kept", status: .ready), job: false)

        // A newer version added a migration.
        let queue = try DatabaseQueue(path: url.path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9: from a newer version')")
        }
        try queue.close()
        #expect(throws: NewerSchemaError(database: url.path, unknown: ["v9: from a newer version"], newestKnown: known.last!)) {
            try SQLiteSchema.refuseNewer(at: url, known: known)
        }
        let sentence = String(describing: try #require(throws: NewerSchemaError.self) { try SQLiteSchema.refuseNewer(at: url, known: known) })
        #expect(sentence.contains(url.path) && sentence.contains("migrated by a newer version of Marquee"))
        #expect(sentence.contains("\"v9: from a newer version\"") && sentence.contains("an older version does not start on a newer database"))
        // Refusing changed nothing: the newer version still finds its rows and its migration.
        let stillThere = try await SQLiteLibraryStore(url: url).assets().map(\.title)
        #expect(stillThere == ["Kept"])
    }

    @Test func postgresqlMigratesOnceAndRefusesADatabaseANewerVersionMigrated() async throws {
        let url = try await ThrowawayPostgreSQL.shared.makeDatabase(prefix: "schema")
        guard case .postgres(let info) = try DatabaseLocation(parsing: url) else {
            Issue.record("not PostgreSQL: \(url)")
            return
        }
        let first = try await PostgreSQLLibraryStore.open(info, timeout: .testStoreOpening)
        #expect(first.migrationsAppliedAtOpen == PostgreSQLLibraryStore.migrationIdentifiers)
        _ = try await first.insert(Asset(title: "Kept", status: .ready), job: false)
        first.close()
        let second = try await PostgreSQLLibraryStore.open(info, timeout: .testStoreOpening)
        #expect(second.migrationsAppliedAtOpen == [])
        second.close()

        let server = try await ThrowawayPostgreSQL.shared.server()
        try await ThrowawayPostgreSQL.shared.psql(
            server, database: info.database, "INSERT INTO schema_migration (version, name) VALUES (99, 'from a newer version')")
        let refusal = try await #require(throws: NewerSchemaError.self) {
            _ = try await PostgreSQLLibraryStore.open(info, timeout: .testStoreOpening)
        }
        #expect(refusal.unknown == ["99: from a newer version"])
        #expect(refusal.newestKnown == PostgreSQLLibraryStore.migrationIdentifiers.last)
        #expect(refusal.database == info.description && !String(describing: refusal).contains("password"))
        #expect(String(describing: refusal).contains("was migrated by a newer version of Marquee"))

        // Without the newer migration the rows are all there: refusing wrote nothing.
        try await ThrowawayPostgreSQL.shared.psql(server, database: info.database, "DELETE FROM schema_migration WHERE version = 99")
        let third = try await PostgreSQLLibraryStore.open(info, timeout: .testStoreOpening)
        #expect(try await third.assets().map(\.title) == ["Kept"])
        third.close()
    }
}
