public import Foundation
public import GRDB
import JSONDocument
import SQLiteDatabase

extension Activity: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { "liveActivity" }

    /// Columns written by hand: JSON columns hold JSON text (GRDB's automatic coding would
    /// read a JSON value's single-value container back as a string).
    public init(row: Row) throws {
        func json<T: Decodable>(_ column: String, as type: T.Type) throws -> T {
            let text: String = row[column]
            return try JSONValue.decoder.decode(T.self, from: Data(text.utf8))
        }
        id = row["id"]
        type = row["type"]
        attributes = try json("attributes", as: JSONValue.self)
        content = try json("content", as: ActivityContent<JSONValue>.self)
        phase = Phase(rawValue: row["phase"]) ?? .ended
        createdAt = row["createdAt"]
        startDate = row["startDate"]
        timestamp = row["timestamp"]
        endedAt = row["endedAt"]
        dismissalDate = row["dismissalDate"]
        alert = try (row["alert"] as String?).map { try JSONValue.decoder.decode(AlertConfiguration.self, from: Data($0.utf8)) }
        alertDate = row["alertDate"]
        endedBySystem = row["endedBySystem"]
    }

    public func encode(to container: inout PersistenceContainer) throws {
        func json(_ value: some Encodable) throws -> String { String(decoding: try JSONValue.encoder.encode(value), as: UTF8.self) }
        container["id"] = id
        container["type"] = type
        container["attributes"] = try json(attributes)
        container["content"] = try json(content)
        container["phase"] = phase.rawValue
        container["createdAt"] = createdAt
        container["startDate"] = startDate
        container["timestamp"] = timestamp
        container["endedAt"] = endedAt
        container["dismissalDate"] = dismissalDate
        container["alert"] = try alert.map(json)
        container["alertDate"] = alertDate
        container["endedBySystem"] = endedBySystem
    }

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns: String, ColumnExpression {
        case createdAt
    }
}
extension ActivityPushToken: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { "activityPushToken" }

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns: String, ColumnExpression {
        case activityID, deviceID, createdAt
    }
}
extension PushToStartToken: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { "pushToStartToken" }

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns: String, ColumnExpression {
        case deviceID, attributesType, createdAt
    }
}
extension BroadcastChannel: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { "broadcastChannel" }

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns: String, ColumnExpression {
        case createdAt
    }
}
extension PushOutcomeRecord: FetchableRecord, MutablePersistableRecord {
    public static var databaseTableName: String { "pushOutcome" }

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns: String, ColumnExpression {
        case id, activityID
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Where Live Activities and what hangs off them are kept: activities, push tokens,
/// push-to-start tokens, broadcast channels and push outcomes, so all of them survive a restart.
///
/// Two implementations share this contract and one test suite: `SQLiteActivityStore` (GRDB,
/// tables in the library's SQLite file, the single-machine default) and the PostgreSQL store in
/// `PostgreSQLStores`, shared by every server node, so an activity started through node A is
/// listed by node B (`ActivityCenter` reads a shared store again as it reconciles).
public protocol ActivityStore: Sendable {
    /// Whether other processes write to this store too.
    var isShared: Bool { get }

    /// Inserts or replaces an activity.
    func save(_ activity: Activity) async throws
    func activity(id: String) async throws -> Activity?
    /// Every activity, oldest first.
    func activities() async throws -> [Activity]
    /// Deletes an activity and its push tokens.
    func deleteActivity(id: String) async throws

    /// Inserts or replaces a push token (by its token).
    func save(_ token: ActivityPushToken) async throws
    /// An activity's push tokens, oldest first.
    func pushTokens(activityID: String) async throws -> [ActivityPushToken]
    func pushTokens(deviceID: String) async throws -> [ActivityPushToken]
    /// False when there was no such token.
    @discardableResult
    func deletePushToken(_ token: String) async throws -> Bool
    /// Sets (or clears) when a token may be pushed to again.
    func setBackoff(_ until: Date?, for token: String) async throws

    func save(_ token: PushToStartToken) async throws
    /// Push-to-start tokens, oldest first, of one device and/or one attributes type.
    func pushToStartTokens(deviceID: String?, attributesType: String?) async throws -> [PushToStartToken]
    @discardableResult
    func deletePushToStartToken(_ token: String) async throws -> Bool

    func save(_ channel: BroadcastChannel) async throws
    /// Every channel, oldest first.
    func channels() async throws -> [BroadcastChannel]
    func channel(id: String) async throws -> BroadcastChannel?
    @discardableResult
    func deleteChannel(id: String) async throws -> Bool

    /// Records a push's outcome, keeping the newest `outcomesKept` per activity.
    func record(_ outcome: PushOutcomeRecord) async throws
    /// Outcomes, newest first, optionally of one activity.
    func outcomes(activityID: String?, limit: Int) async throws -> [PushOutcomeRecord]
}

/// Outcomes kept per activity (the newest), by every store.
public let activityOutcomesKept = 200

extension ActivityStore {
    public func pushToStartTokens() async throws -> [PushToStartToken] {
        try await pushToStartTokens(deviceID: nil, attributesType: nil)
    }

    public func pushToStartTokens(deviceID: String?) async throws -> [PushToStartToken] {
        try await pushToStartTokens(deviceID: deviceID, attributesType: nil)
    }

    public func pushToStartTokens(attributesType: String?) async throws -> [PushToStartToken] {
        try await pushToStartTokens(deviceID: nil, attributesType: attributesType)
    }

    public func outcomes(activityID: String? = nil) async throws -> [PushOutcomeRecord] {
        try await outcomes(activityID: activityID, limit: 100)
    }

    public func outcomes(limit: Int) async throws -> [PushOutcomeRecord] {
        try await outcomes(activityID: nil, limit: limit)
    }
}

/// Activities, push tokens, push-to-start tokens, broadcast channels and push outcomes in
/// SQLite, so all of them survive a restart. Every access is async on GRDB's own queues.
public final class SQLiteActivityStore: ActivityStore {
    let database: any DatabaseWriter
    /// Outcomes kept per activity (the newest).
    static let outcomesKept = activityOutcomesKept

    /// Opens (creating if needed) the SQLite file at `url` — the library's own file in the
    /// server — and adds the activity tables.
    public convenience init(url: URL) throws {
        try self.init(database: SQLiteDatabase.openPool(at: url, migrator: nil))
    }

    public var isShared: Bool { false }

    /// Every migration of the activity tables, oldest first.
    public static var migrationIdentifiers: [String] { ActivityMigrations.migrator.migrations }

    /// Brings the activity tables in the file at `url` up to date; returns the migrations it applied.
    public static func migrate(url: URL) throws -> [String] {
        let pool = try SQLiteDatabase.openPool(at: url, migrator: nil)
        defer { try? pool.close() }
        return try SQLiteDatabase.migrate(pool, with: ActivityMigrations.migrator)
    }

    /// Uses an open database (an in-memory `DatabaseQueue` in tests).
    public init(database: any DatabaseWriter) throws {
        self.database = database
        try ActivityMigrations.migrator.migrate(database)
    }

    // MARK: Activities

    public func save(_ activity: Activity) async throws {
        try await database.write { db in try activity.save(db) }
    }

    public func activity(id: String) async throws -> Activity? {
        try await database.read { db in try Activity.fetchOne(db, key: id) }
    }

    public func activities() async throws -> [Activity] {
        try await database.read { db in try Activity.order(Activity.Columns.createdAt).fetchAll(db) }
    }

    public func deleteActivity(id: String) async throws {
        _ = try await database.write { db in try Activity.deleteOne(db, key: id) }
    }

    // MARK: Push tokens

    public func save(_ token: ActivityPushToken) async throws {
        try await database.write { db in try token.save(db) }
    }

    public func pushTokens(activityID: String) async throws -> [ActivityPushToken] {
        try await database.read { db in
            try ActivityPushToken.filter(ActivityPushToken.Columns.activityID == activityID).order(ActivityPushToken.Columns.createdAt).fetchAll(db)
        }
    }

    public func pushTokens(deviceID: String) async throws -> [ActivityPushToken] {
        try await database.read { db in try ActivityPushToken.filter(ActivityPushToken.Columns.deviceID == deviceID).fetchAll(db) }
    }

    @discardableResult
    public func deletePushToken(_ token: String) async throws -> Bool {
        try await database.write { db in try ActivityPushToken.deleteOne(db, key: token) }
    }

    public func setBackoff(_ until: Date?, for token: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE activityPushToken SET backoffUntil = ? WHERE token = ?", arguments: [until, token])
        }
    }

    public func save(_ token: PushToStartToken) async throws {
        try await database.write { db in try token.save(db) }
    }

    public func pushToStartTokens(deviceID: String?, attributesType: String?) async throws -> [PushToStartToken] {
        try await database.read { db in
            var request = PushToStartToken.order(PushToStartToken.Columns.createdAt)
            if let deviceID { request = request.filter(PushToStartToken.Columns.deviceID == deviceID) }
            if let attributesType { request = request.filter(PushToStartToken.Columns.attributesType == attributesType) }
            return try request.fetchAll(db)
        }
    }

    @discardableResult
    public func deletePushToStartToken(_ token: String) async throws -> Bool {
        try await database.write { db in try PushToStartToken.deleteOne(db, key: token) }
    }

    // MARK: Channels

    public func save(_ channel: BroadcastChannel) async throws {
        try await database.write { db in try channel.save(db) }
    }

    public func channels() async throws -> [BroadcastChannel] {
        try await database.read { db in try BroadcastChannel.order(BroadcastChannel.Columns.createdAt).fetchAll(db) }
    }

    public func channel(id: String) async throws -> BroadcastChannel? {
        try await database.read { db in try BroadcastChannel.fetchOne(db, key: id) }
    }

    @discardableResult
    public func deleteChannel(id: String) async throws -> Bool {
        try await database.write { db in try BroadcastChannel.deleteOne(db, key: id) }
    }

    // MARK: Outcomes

    public func record(_ outcome: PushOutcomeRecord) async throws {
        try await database.write { db in
            var row = outcome
            try row.insert(db)
            if let activityID = outcome.activityID {
                try db.execute(
                    sql: """
                        DELETE FROM pushOutcome WHERE activityID = ? AND id NOT IN
                          (SELECT id FROM pushOutcome WHERE activityID = ? ORDER BY id DESC LIMIT ?)
                        """, arguments: [activityID, activityID, Self.outcomesKept])
            }
        }
    }

    public func outcomes(activityID: String?, limit: Int) async throws -> [PushOutcomeRecord] {
        try await database.read { db in
            var request = PushOutcomeRecord.order(PushOutcomeRecord.Columns.id.desc).limit(limit)
            if let activityID { request = request.filter(PushOutcomeRecord.Columns.activityID == activityID) }
            return try request.fetchAll(db)
        }
    }
}
