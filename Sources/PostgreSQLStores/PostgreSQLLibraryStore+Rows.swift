import Foundation
import Library
import PostgresNIO

/// How the library's values map to PostgreSQL rows and back.
extension PostgreSQLLibraryStore {
    static let assetColumnNames = [
        "id", "title", "subtitle", "summary", "duration", "width", "height", "source_path", "source_missing", "status", "role",
        "badges", "created_at", "series_title", "season_number", "episode_number", "episode_title", "release_date",
        "live_start_date", "live_end_date", "deleted_at", "is_protected",
    ]

    static var assetColumns: String { assetColumns(table: nil) }

    static func assetColumns(table: String?) -> String {
        assetColumnNames.map { column in table.map { "\($0).\(column)" } ?? column }.joined(separator: ", ")
    }

    static func insertQuery(_ a: Asset) -> PostgresQuery {
        """
        INSERT INTO asset (id, title, subtitle, summary, duration, width, height, source_path, source_missing, status, role, badges,
                           created_at, series_title, season_number, episode_number, episode_title, release_date, live_start_date,
                           live_end_date, deleted_at, is_protected)
        VALUES (\(a.id), \(a.title), \(a.subtitle), \(a.summary), \(a.duration), \(a.width), \(a.height), \(a.sourcePath), \(a.sourceMissing),
                \(a.status.rawValue), \(a.role.rawValue), \(a.badges), \(a.createdAt), \(a.seriesTitle), \(a.seasonNumber), \(a.episodeNumber),
                \(a.episodeTitle), \(a.releaseDate), \(a.liveStartDate), \(a.liveEndDate), \(a.deletedAt), \(a.isProtected))
        """
    }

    static func asset(from row: PostgresRow) throws -> Asset {
        let r = row.makeRandomAccess()
        guard let status = Asset.Status(rawValue: try r["status"].decode(String.self)),
            let role = Asset.Role(rawValue: try r["role"].decode(String.self))
        else {
            throw LibraryError.invalidRequest("The asset row \(try r["id"].decode(String.self)) has an unknown status or role")
        }
        var asset = Asset(
            id: try r["id"].decode(String.self), title: try r["title"].decode(String.self),
            subtitle: try r["subtitle"].decode(String?.self), summary: try r["summary"].decode(String?.self),
            duration: try r["duration"].decode(Double?.self), width: try r["width"].decode(Int?.self), height: try r["height"].decode(Int?.self),
            sourcePath: try r["source_path"].decode(String?.self), sourceMissing: try r["source_missing"].decode(Bool.self),
            status: status, role: role, badges: try r["badges"].decode([String].self), createdAt: try r["created_at"].decode(Date.self))
        asset.seriesTitle = try r["series_title"].decode(String?.self)
        asset.seasonNumber = try r["season_number"].decode(Int?.self)
        asset.episodeNumber = try r["episode_number"].decode(Int?.self)
        asset.episodeTitle = try r["episode_title"].decode(String?.self)
        asset.releaseDate = try r["release_date"].decode(String?.self)
        asset.liveStartDate = try r["live_start_date"].decode(Date?.self)
        asset.liveEndDate = try r["live_end_date"].decode(Date?.self)
        asset.deletedAt = try r["deleted_at"].decode(Date?.self)
        asset.isProtected = try r["is_protected"].decode(Bool.self)
        return asset
    }

    static let jobColumns = "id, asset_id, state, progress, message, attempts, failure_reason, created_at, updated_at"

    static func job(from row: PostgresRow) throws -> IngestJob {
        let (id, assetID, stateText, progress, message, attempts, failureReason, createdAt, updatedAt) =
            try row.decode((Int64, String, String, Double, String?, Int, String?, Date, Date).self)
        guard let state = IngestJob.State(rawValue: stateText) else {
            throw LibraryError.invalidRequest("Job \(id) has an unknown state \(stateText)")
        }
        var job = IngestJob(assetID: assetID, state: state, progress: progress, message: message, attempts: attempts, now: createdAt)
        job.id = id
        job.failureReason = failureReason
        job.updatedAt = updatedAt
        return job
    }

    static func override(from row: PostgresRow) throws -> MetadataOverride {
        let r = row.makeRandomAccess()
        return MetadataOverride(
            assetID: try r["asset_id"].decode(String.self), title: try r["title"].decode(String?.self),
            subtitle: try r["subtitle"].decode(String?.self), summary: try r["summary"].decode(String?.self),
            artworkURL: try r["artwork_url"].decode(String?.self), seriesTitle: try r["series_title"].decode(String?.self),
            seasonNumber: try r["season_number"].decode(Int?.self), episodeNumber: try r["episode_number"].decode(Int?.self),
            episodeTitle: try r["episode_title"].decode(String?.self), releaseDate: try r["release_date"].decode(String?.self),
            liveStartDate: try r["live_start_date"].decode(Date?.self), liveEndDate: try r["live_end_date"].decode(Date?.self))
    }

    /// Whether a query returned any row (reading them all, so the connection is free again).
    static func any(_ rows: PostgresRowSequence) async throws -> Bool {
        var found = false
        for try await _ in rows { found = true }
        return found
    }
}
