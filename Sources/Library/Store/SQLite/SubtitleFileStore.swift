import EventFeed
import Foundation
import GRDB

/// Added subtitle files on SQLite: the `subtitleFile` table, one row per file with its WebVTT.
extension SQLiteLibraryStore {
    public func subtitleFiles(for assetID: String) async throws -> [SubtitleFile] {
        try await database.read { db in
            try SubtitleFile.filter(SubtitleFile.Columns.assetID == assetID)
                .order(SubtitleFile.Columns.createdAt, SubtitleFile.Columns.id).fetchAll(db)
        }
    }

    public func saveSubtitleFile(_ file: SubtitleFile) async throws {
        try await database.write { db in try file.save(db) }
        changes.publish(.assetChanged(file.assetID))
    }

    public func deleteSubtitleFile(id: String, assetID: String) async throws -> Bool {
        let deleted = try await database.write { db in
            try SubtitleFile.filter(SubtitleFile.Columns.id == id && SubtitleFile.Columns.assetID == assetID).deleteAll(db)
        }
        if deleted > 0 { changes.publish(.assetChanged(assetID)) }
        return deleted > 0
    }
}

/// The migration that adds `subtitleFile`; registered by `LibraryMigrations`.
enum SubtitleFileMigration {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5 (subtitle files): subtitle files added to assets") { db in
            try db.create(table: "subtitleFile") { t in
                t.primaryKey("id", .text)
                t.column("assetID", .text).notNull().indexed().references("asset", onDelete: .cascade)
                t.column("language", .text)
                t.column("label", .text).notNull()
                t.column("format", .text).notNull()
                t.column("isForced", .boolean).notNull().defaults(to: false)
                t.column("cueCount", .integer).notNull()
                t.column("webVTT", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
        }
    }
}
