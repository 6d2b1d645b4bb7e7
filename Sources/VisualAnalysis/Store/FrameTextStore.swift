public import Foundation
import GRDB
import SQLiteDatabase

/// Where recognised frame text is kept: a cache of each analysed frame (so a second pause on
/// the same frame answers at once) and a full-text index of the frames sampled at ingest
/// (SQLite FTS5 with the trigram tokenizer, which finds Japanese as well as English because
/// it needs no word boundaries).
///
/// Its own SQLite file beside the library's (`frame-text.sqlite`), with its own migrations;
/// a `DatabasePool`, so reads never wait for writes and nothing runs on the cooperative pool.
/// The frame cache is always the node's own; the search index here is the one a single-machine
/// library uses (`FrameTextIndex`; a cluster keeps its index in PostgreSQL instead).
public final class FrameTextStore: FrameTextIndex {
    let database: DatabasePool

    public init(url: URL) throws {
        database = try SQLiteDatabase.openPool(at: url, migrator: Self.migrator)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: analysed frames, frame-text index") { db in
            try db.create(table: "analysedFrame") { t in
                t.column("assetID", .text).notNull()
                t.column("frameTime", .double).notNull()
                t.column("frameDuration", .double).notNull()
                t.column("result", .jsonText).notNull()
                t.column("analysedAt", .datetime).notNull()
                t.primaryKey(["assetID", "frameTime"])
            }
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE frameTextIndex USING fts5(
                        assetID UNINDEXED, time UNINDEXED, endTime UNINDEXED, text, tokenize = 'trigram')
                    """)
            try db.create(table: "indexedAsset") { t in
                t.primaryKey("assetID", .text)
                t.column("frames", .integer).notNull()
                t.column("indexedAt", .datetime).notNull()
            }
        }
        return migrator
    }

    // MARK: Cache

    /// The cached analysis of the frame of `assetID` on screen at `time`, if there is one.
    public func cachedFrame(assetID: String, at time: Double) async throws -> FrameText? {
        try await database.read { db in
            // The frame shown at `time` is the latest one starting at or before it, as long
            // as it still lasts then (a frame's own time always matches).
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT frameTime, frameDuration, result FROM analysedFrame
                    WHERE assetID = ? AND frameTime <= ? + 0.0005
                    ORDER BY frameTime DESC LIMIT 1
                    """, arguments: [assetID, time])
            guard let row else { return nil }
            let frameTime: Double = row["frameTime"]
            let duration: Double = row["frameDuration"]
            guard time < frameTime + max(duration, 0.001) - 0.0005 || abs(time - frameTime) <= 0.0005 else { return nil }
            let json: String = row["result"]
            return FrameText(
                frameTime: frameTime, frameDuration: duration,
                text: try JSONDecoder().decode(RecognizedText.self, from: Data(json.utf8)))
        }
    }

    /// Keeps an analysed frame for later pauses.
    public func cache(_ frame: FrameText, assetID: String) async throws {
        let json = String(decoding: try JSONEncoder().encode(frame.text), as: UTF8.self)
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO analysedFrame(assetID, frameTime, frameDuration, result, analysedAt) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(assetID, frameTime) DO UPDATE SET frameDuration = excluded.frameDuration,
                        result = excluded.result, analysedAt = excluded.analysedAt
                    """, arguments: [assetID, frame.frameTime, frame.frameDuration, json, Date()])
        }
    }

    /// How many frames of `assetID` are cached.
    public func cachedFrameCount(assetID: String) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM analysedFrame WHERE assetID = ?", arguments: [assetID]) ?? 0
        }
    }

    // MARK: Search index

    /// One stretch of an asset whose frames show `text`, from `time` to `endTime` seconds.
    public struct IndexedFrame: Sendable, Hashable {
        public var time: Double
        public var endTime: Double
        public var text: String

        public init(time: Double, endTime: Double, text: String) {
            self.time = time
            self.endTime = endTime
            self.text = text
        }
    }

    /// Replaces what the index holds for `assetID` with `frames` and marks it indexed.
    public func replaceIndex(assetID: String, with frames: [IndexedFrame]) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM frameTextIndex WHERE assetID = ?", arguments: [assetID])
            for frame in frames where !frame.text.isEmpty {
                try db.execute(
                    sql: "INSERT INTO frameTextIndex(assetID, time, endTime, text) VALUES (?, ?, ?, ?)",
                    arguments: [assetID, frame.time, frame.endTime, frame.text])
            }
            try db.execute(
                sql: """
                    INSERT INTO indexedAsset(assetID, frames, indexedAt) VALUES (?, ?, ?)
                    ON CONFLICT(assetID) DO UPDATE SET frames = excluded.frames, indexedAt = excluded.indexedAt
                    """, arguments: [assetID, frames.count, Date()])
        }
    }

    /// Whether `assetID`'s frames have been indexed.
    public func isIndexed(assetID: String) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM indexedAsset WHERE assetID = ?", arguments: [assetID]) ?? false
        }
    }

    /// Every asset whose frames have been indexed.
    public func indexedAssetIDs() async throws -> Set<String> {
        try await database.read { db in Set(try String.fetchAll(db, sql: "SELECT assetID FROM indexedAsset")) }
    }

    /// Removes the search index of `assetID`, keeping its cached frames.
    public func forgetIndex(assetID: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM frameTextIndex WHERE assetID = ?", arguments: [assetID])
            try db.execute(sql: "DELETE FROM indexedAsset WHERE assetID = ?", arguments: [assetID])
        }
    }

    /// Removes everything kept about `assetID` (it was deleted or marked protected).
    public func forget(assetID: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM frameTextIndex WHERE assetID = ?", arguments: [assetID])
            try db.execute(sql: "DELETE FROM analysedFrame WHERE assetID = ?", arguments: [assetID])
            try db.execute(sql: "DELETE FROM indexedAsset WHERE assetID = ?", arguments: [assetID])
        }
    }

    /// A place in an asset whose frame shows the searched text.
    public struct Hit: Sendable, Hashable, Codable {
        public var assetID: String
        public var time: Double
        public var endTime: Double
        /// The line of frame text that matched.
        public var text: String

        /// A hit on the stretch `time`–`endTime` of `assetID` whose frames show `frameText`: its
        /// text is the first line that contains `query` (the whole text when none does alone).
        public init(assetID: String, time: Double, endTime: Double, frameText: String, query: String) {
            let line = frameText.split(separator: "\n").first { $0.range(of: query, options: .caseInsensitive) != nil }
            self.assetID = assetID
            self.time = time
            self.endTime = endTime
            text = String(line ?? Substring(frameText)).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Frames whose text contains `query` (case-insensitive), best matches first. Queries of
    /// three characters or more use the trigram index; shorter ones (two kanji) scan.
    public func search(_ query: String, limit: Int = 50) async throws -> [Hit] {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return [] }
        let rows: [Row] = try await database.read { db in
            if trimmed.count >= 3 {
                let phrase = "\"" + trimmed.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                return try Row.fetchAll(
                    db,
                    sql: """
                        SELECT assetID, time, endTime, text FROM frameTextIndex WHERE frameTextIndex MATCH ?
                        ORDER BY rank LIMIT ?
                        """, arguments: [phrase, limit])
            }
            let pattern =
                "%"
                + trimmed.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT assetID, time, endTime, text FROM frameTextIndex WHERE text LIKE ? ESCAPE '\\' LIMIT ?
                    """, arguments: [pattern, limit])
        }
        return rows.map { row in
            Hit(assetID: row["assetID"], time: row["time"], endTime: row["endTime"], frameText: row["text"], query: trimmed)
        }
    }
}
