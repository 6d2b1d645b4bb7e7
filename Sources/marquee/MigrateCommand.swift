import Accounts
import ArgumentParser
import Foundation
import HLS
import JSONDocument
import Library
import LiveActivities
import PostgreSQLStores

/// `marquee migrate`: brings a database up to this version's schema and exits, printing what it
/// applied. `serve`, `worker` and `add` migrate at start as well; this is for upgrading a
/// cluster's database once, before the nodes of the new version start, or for checking
/// that a database can be used by this version.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply this version's database migrations to --database and exit.",
        discussion: """
            Prints each migration it applies (none when the database is up to date). With SQLite \
            the library's file and the accounts file in the data directory are migrated; with \
            PostgreSQL every table the nodes share. A database that a newer version has migrated \
            is refused with exit status 3 and changed in no way (docs/deploying.md, "Upgrades").
            """
    )

    @Option(help: "Data directory (default: $XDG_DATA_HOME/marquee or ~/.local/share/marquee).")
    var data: String?

    @OptionGroup var storage: StorageOptions

    @Flag(help: "Print JSON lines (the default when standard output is not a terminal).")
    var json = false

    func run() async throws {
        let console = Console(command: "migrate", json: json)
        try await console.run {
            let dataDirectory = data.map { URL(fileURLWithPath: $0) } ?? LibraryLocation.defaultDataDirectory()
            let configuration = try storage.resolve(dataDirectory: dataDirectory)
            var applied: [(database: String, migration: String)] = []
            let known: Int
            switch configuration.database {
            case .sqlite(let url):
                let accounts = LibraryLocation(dataDirectory: dataDirectory).accountsDatabaseURL
                try NodeSchema.refuseNewerSQLite(library: url, accounts: accounts)
                applied += try SQLiteLibraryStore.migrate(url: url).map { (url.path, $0) }
                applied += try SQLiteActivityStore.migrate(url: url).map { (url.path, $0) }
                applied += try SQLiteAccountStore.migrate(url: accounts).map { (accounts.path, $0) }
                known = NodeSchema.libraryFileMigrations.count + SQLiteAccountStore.migrationIdentifiers.count
            case .postgres(let info):
                let store = try await PostgreSQLLibraryStore.open(info)
                store.close()
                applied += store.migrationsAppliedAtOpen.map { (info.description, $0) }
                known = PostgreSQLLibraryStore.migrationIdentifiers.count
            }
            for (database, migration) in applied {
                console.emit(
                    "applied", [("database", .string(database)), ("migration", .string(migration))],
                    text: "applied  \(migration)  (\(database))")
            }
            let summary =
                applied.isEmpty
                ? "\(configuration.database) is up to date: nothing to apply (\(known) migrations known to this version)"
                : "\(configuration.database) is up to date: applied \(applied.count) of the \(known) migrations known to this version"
            console.emit(
                "migrated", [("database", .string(configuration.database.description)), ("applied", .int(applied.count)), ("message", .string(summary))],
                text: summary)
        }
    }
}

/// The migrations this binary has for each SQLite file of a node, and the refusal of a file
/// that a newer version has migrated (`NewerSchemaError`), checked before anything opens it.
enum NodeSchema {
    /// The library's file holds the library's tables and the Live Activities' (newest last:
    /// the library's, which the refusal names).
    static var libraryFileMigrations: [String] { SQLiteActivityStore.migrationIdentifiers + SQLiteLibraryStore.migrationIdentifiers }

    static func refuseNewerSQLite(library: URL, accounts: URL) throws {
        try SQLiteSchema.refuseNewer(at: library, known: libraryFileMigrations)
        try SQLiteSchema.refuseNewer(at: accounts, known: SQLiteAccountStore.migrationIdentifiers)
    }
}
