import Foundation
public import Library
import PostgresNIO

/// Added subtitle files on PostgreSQL: the `subtitle_file` table, one row per file with its WebVTT.
extension PostgreSQLLibraryStore {
    public func subtitleFiles(for assetID: String) async throws -> [SubtitleFile] {
        try await read(
            "list the subtitle files of \(assetID)",
            """
            SELECT id, asset_id, language, label, format, is_forced, cue_count, web_vtt, created_at
            FROM subtitle_file WHERE asset_id = \(assetID) ORDER BY created_at, id
            """
        ) { row in
            let (id, asset, language, label, format, forced, cues, webVTT, created) = try row.decode(
                (String, String, String?, String, String, Bool, Int, String, Date).self)
            return SubtitleFile(
                id: id, assetID: asset, language: language, label: label, format: SubtitleFormat(rawValue: format) ?? .webVTT,
                isForced: forced, cueCount: cues, webVTT: webVTT, createdAt: created)
        }
    }

    public func saveSubtitleFile(_ file: SubtitleFile) async throws {
        try await write("save subtitle file \(file.id)", changes: { _ in [.assetChanged(file.assetID)] }) { connection in
            try await connection.query(
                """
                INSERT INTO subtitle_file (id, asset_id, language, label, format, is_forced, cue_count, web_vtt, created_at)
                VALUES (\(file.id), \(file.assetID), \(file.language), \(file.label), \(file.format.rawValue), \(file.isForced),
                        \(file.cueCount), \(file.webVTT), \(file.createdAt))
                ON CONFLICT (id) DO UPDATE SET language = EXCLUDED.language, label = EXCLUDED.label, format = EXCLUDED.format,
                    is_forced = EXCLUDED.is_forced, cue_count = EXCLUDED.cue_count, web_vtt = EXCLUDED.web_vtt
                """, logger: self.logger)
        }
    }

    public func deleteSubtitleFile(id: String, assetID: String) async throws -> Bool {
        try await write(
            "delete subtitle file \(id)", changes: { deleted in deleted ? [.assetChanged(assetID)] : [] }
        ) { connection -> Bool in
            var deleted = false
            for try await _ in try await connection.query(
                "DELETE FROM subtitle_file WHERE id = \(id) AND asset_id = \(assetID) RETURNING id", logger: self.logger)
            {
                deleted = true
            }
            return deleted
        }
    }
}
