public import Foundation
import GRDB
import SQLiteDatabase

/// A database that a newer version of Marquee has migrated, met by an older version.
///
/// The rule for two versions on one database (docs/deploying.md, "Upgrades"): migrations only
/// add (tables, columns with defaults, indexes), never rename, drop or change the meaning of
/// what an older version reads or writes, so a node of the previous version keeps working while
/// the first node of the next one migrates the database under it. But a process does not
/// *start* on a database that has migrations it does not know: it could not tell which rule a
/// newer migration relies on, and an operator who rolled one node back by mistake should hear
/// so at once, not see odd rows later. `serve`, `worker`, `add`, `users` and `migrate` stop
/// with this sentence (exit status 3) instead.
public struct NewerSchemaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The database, as the sentence names it (a file path or a `postgres://` URL without its password).
    public let database: String
    /// The applied migrations this version does not know.
    public let unknown: [String]
    /// The newest migration this version knows.
    public let newestKnown: String

    public init(database: String, unknown: [String], newestKnown: String) {
        self.database = database
        self.unknown = unknown
        self.newestKnown = newestKnown
    }

    public var description: String {
        let listed = unknown.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ") + (unknown.count > 5 ? ", …" : "")
        return
            "\(database) was migrated by a newer version of Marquee: it has \(unknown.count == 1 ? "a migration" : "\(unknown.count) migrations") this version does not know (\(listed); the newest this version knows is \"\(newestKnown)\"). Run the newer version on it: an older version does not start on a newer database (or restore the backup taken before the upgrade)."
    }
}

/// The migrations of the SQLite files a node keeps, and the rule above applied to them.
public enum SQLiteSchema {
    /// Throws `NewerSchemaError` when the SQLite file at `url` has a migration that is not in
    /// `known` — every migration this binary has for that file, from every store that keeps
    /// tables in it (the library's file also holds the Live Activities' tables). A file that
    /// does not exist yet passes.
    public static func refuseNewer(at url: URL, known: [String]) throws {
        let applied = try SQLiteDatabase.appliedMigrations(at: url)
        let unknown = applied.subtracting(known).sorted()
        guard unknown.isEmpty else {
            throw NewerSchemaError(database: url.path, unknown: unknown, newestKnown: known.last ?? "none")
        }
    }
}

extension SQLiteLibraryStore {
    /// Every migration of the library's tables, oldest first.
    public static var migrationIdentifiers: [String] { LibraryMigrations.migrator.migrations }

    /// Brings the library's tables in the file at `url` up to date (creating the file if
    /// needed); returns the migrations it applied.
    public static func migrate(url: URL) throws -> [String] {
        let pool = try SQLiteDatabase.openPool(at: url, migrator: nil)
        defer { try? pool.close() }
        return try SQLiteDatabase.migrate(pool, with: LibraryMigrations.migrator)
    }
}
