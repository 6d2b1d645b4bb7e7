public import Foundation
import GRDB

/// The resume journal of one download, in SQLite: which bundle files are complete (with
/// their sizes) and the settings the download was started with, so a killed download
/// continues where it stopped and `--resume DIR` needs no other arguments.
public final class DownloadJournal: Sendable {
    let queue: DatabaseQueue
    /// The journal's SQLite file.
    public let url: URL

    /// Opens (creating if needed) the journal at `url`.
    public init(url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        // WAL with synchronous=NORMAL: a commit survives the process being killed (the
        // case resume is for) without an fsync per finished file.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        queue = try DatabaseQueue(path: url.path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "file") { t in
                t.primaryKey("path", .text)
                t.column("bytes", .integer).notNull()
                t.column("completedAt", .double).notNull()
            }
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        try migrator.migrate(queue)
    }

    /// Files recorded as complete: path → size in bytes.
    public func completedFiles() async throws -> [String: Int64] {
        try await queue.read { db in
            var result: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, bytes FROM file") { result[row["path"]] = row["bytes"] }
            return result
        }
    }

    /// Records a file as complete (after it was flushed and renamed into place).
    public func markCompleted(path: String, bytes: Int64) async throws {
        try await queue.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO file (path, bytes, completedAt) VALUES (?, ?, ?)",
                arguments: [path, bytes, Date().timeIntervalSince1970])
        }
    }

    /// Removes `path` from the complete files, so a resumed download fetches it again.
    public func forget(path: String) async throws {
        try await queue.write { db in try db.execute(sql: "DELETE FROM file WHERE path = ?", arguments: [path]) }
    }

    /// The setting saved under `key`, or nil.
    public func setting(_ key: String) async throws -> String? {
        try await queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    /// Saves `value` under `key`, replacing what was there.
    public func setSetting(_ key: String, _ value: String) async throws {
        try await queue.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }
}
