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
}
