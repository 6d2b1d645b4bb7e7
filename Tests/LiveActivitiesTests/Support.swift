import Foundation
import GRDB
import Synchronization

@testable import LiveActivities

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let date: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { date = Mutex(start) }
    var now: Date { date.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var reader: @Sendable () -> Date { { [self] in self.now } }
}

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
    .object(["percent": .number(Double(percent)), "note": .string(note)])
}

func content(_ percent: Int, staleDate: Date? = nil, relevance: Double = 0) -> ActivityContent<JSONValue> {
    ActivityContent(state: state(percent), staleDate: staleDate, relevanceScore: relevance)
}

func makeCenter(clock: TestClock, path: URL? = nil) async throws -> ActivityCenter {
    let store = try path.map { try SQLiteActivityStore(url: $0) } ?? SQLiteActivityStore(database: DatabaseQueue())
    return try await ActivityCenter(store: store, now: clock.reader)
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
