public import Foundation
public import GRDB

/// How every SQLite store of a node opens its file: one place for the folder, the pool and
/// the settings the stores share.
///
/// The library, the accounts, the Live Activities and the frame-text index each keep a GRDB `DatabasePool` (WAL
/// mode, so reads never wait for writes) with foreign keys on and a 5-second busy timeout,
/// because several stores and processes (`marquee add --queue-only`, a second worker) write
/// the same files. Each store then runs its own migrator. (A download's resume journal is
/// the exception: one writer, a `DatabaseQueue` with `synchronous = NORMAL`, see `DownloadJournal`.)
public enum SQLiteDatabase {
    /// Opens (creating it and its folder if needed) the SQLite file at `url` as a WAL pool
    /// with foreign keys on and a 5-second busy timeout, then runs `migrator` (nil: the
    /// caller migrates).
    public static func openPool(at url: URL, migrator: DatabaseMigrator?) throws -> DatabasePool {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: url.path, configuration: configuration)
        try migrator?.migrate(pool)
        return pool
    }

    /// Runs `migrator` on `writer` and returns the identifiers of the migrations it applied
    /// (none when the file was up to date), for `marquee migrate` to print.
    public static func migrate(_ writer: any DatabaseWriter, with migrator: DatabaseMigrator) throws -> [String] {
        let before = try writer.read { db in try migrator.appliedIdentifiers(db) }
        try migrator.migrate(writer)
        return migrator.migrations.filter { !before.contains($0) }
    }

    /// The identifiers of every migration applied to the SQLite file at `url`, whichever
    /// store's migrator ran it (several stores share a file); none when there is no file yet.
    /// Opens the file for this read only, and changes nothing in it.
    public static func appliedMigrations(at url: URL) throws -> Set<String> {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try DatabaseMigrator().appliedIdentifiers(db) }
    }
}
