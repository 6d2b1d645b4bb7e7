import Foundation
import GRDB
import JSONDocument
import MediaTesting

@testable import LiveActivities

/// A download as the Downloading activity shows it, typed like an app's own attributes.
struct SampleAttributes: ActivityAttributes {
    static let attributesType = "Sample"
    struct ContentState: Codable, Sendable, Hashable {
        var percent: Int
        var note: String = ""
    }
    var title: String
}

func state(_ percent: Int, note: String = "") -> JSONValue {
    .object(["percent": .int(percent), "note": .string(note)])
}

func content(_ percent: Int, staleDate: Date? = nil, relevance: Double = 0) -> ActivityContent<JSONValue> {
    ActivityContent(state: state(percent), staleDate: staleDate, relevanceScore: relevance)
}

func makeCenter(clock: ManualClock, path: URL? = nil) async throws -> ActivityCenter {
    let store = try path.map { try SQLiteActivityStore(url: $0) } ?? SQLiteActivityStore(database: DatabaseQueue())
    return try await ActivityCenter(store: store, clock: clock)
}

func temporaryDatabase() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("marquee-activities-\(UUID().uuidString)/library.sqlite")
}

enum DatabaseMigratorForTest {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: assets") { db in try db.create(table: "asset") { t in t.primaryKey("id", .text) } }
        return migrator
    }
}

enum DatabaseQueueForTest {
    static func open(_ url: URL) throws -> DatabaseQueue {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try DatabaseQueue(path: url.path)
    }
}
