public import Foundation
import JSONDocument
public import LiveActivities
import PostgresNIO

/// Live Activities and their push registrations in PostgreSQL, shared by every server node:
/// an activity requested through node A is listed, updated and ended through node B (each
/// node's `ActivityCenter` reads the shared rows back as it reconciles). An activity is kept
/// as the JSON its model encodes, so it reads back exactly as it was written.
public final class PostgreSQLActivityStore: ActivityStore {
    let database: PostgreSQLConnection

    /// Uses the library store's connections and schema (migrations run when it opened).
    public init(sharing library: PostgreSQLLibraryStore) {
        database = PostgreSQLConnection(library)
    }

    public var isShared: Bool { true }

    /// Rows hold activities in the same JSON form as the SQLite store's.
    static var encoder: JSONEncoder { JSONValue.encoder }
    static var decoder: JSONDecoder { JSONValue.decoder }

    static func activity(_ row: PostgresRow) throws -> Activity {
        try decoder.decode(Activity.self, from: Data(try row.decode(String.self).utf8))
    }

    // MARK: Activities

    public func save(_ activity: Activity) async throws {
        let body = String(decoding: try Self.encoder.encode(activity), as: UTF8.self)
        try await database.run(
            "save live activity \(activity.id)",
            """
            INSERT INTO live_activity (id, created_at, body) VALUES (\(activity.id), \(activity.createdAt), \(body))
            ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, body = excluded.body
            """)
    }

    public func activity(id: String) async throws -> Activity? {
        try await database.rows("read live activity \(id)", "SELECT body FROM live_activity WHERE id = \(id)", Self.activity).first
    }

    public func activities() async throws -> [Activity] {
        try await database.rows("list live activities", "SELECT body FROM live_activity ORDER BY created_at, id", Self.activity)
    }

    public func deleteActivity(id: String) async throws {
        try await database.run("delete live activity \(id)", "DELETE FROM live_activity WHERE id = \(id)")
    }

    // MARK: Push tokens

    static func pushToken(_ row: PostgresRow) throws -> ActivityPushToken {
        let (token, activityID, deviceID, environment, createdAt, backoffUntil) = try row.decode((String, String, String, String, Date, Date?).self)
        var record = ActivityPushToken(
            token: token, activityID: activityID, deviceID: deviceID, environment: PushEnvironment(rawValue: environment) ?? .production,
            createdAt: createdAt)
        record.backoffUntil = backoffUntil
        return record
    }

    static let pushTokenColumns = "token, activity_id, device_id, environment, created_at, backoff_until"

    public func save(_ token: ActivityPushToken) async throws {
        try await database.run(
            "save a push token",
            """
            INSERT INTO activity_push_token (token, activity_id, device_id, environment, created_at, backoff_until)
            VALUES (\(token.token), \(token.activityID), \(token.deviceID), \(token.environment.rawValue), \(token.createdAt), \(token.backoffUntil))
            ON CONFLICT (token) DO UPDATE SET activity_id = excluded.activity_id, device_id = excluded.device_id,
                environment = excluded.environment, created_at = excluded.created_at, backoff_until = excluded.backoff_until
            """)
    }

    public func pushTokens(activityID: String) async throws -> [ActivityPushToken] {
        try await database.rows(
            "list push tokens",
            "SELECT \(unescaped: Self.pushTokenColumns) FROM activity_push_token WHERE activity_id = \(activityID) ORDER BY created_at, token",
            Self.pushToken)
    }

    public func pushTokens(deviceID: String) async throws -> [ActivityPushToken] {
        try await database.rows(
            "list push tokens",
            "SELECT \(unescaped: Self.pushTokenColumns) FROM activity_push_token WHERE device_id = \(deviceID) ORDER BY created_at, token",
            Self.pushToken)
    }

    public func deletePushToken(_ token: String) async throws -> Bool {
        try await database.run("delete a push token", "DELETE FROM activity_push_token WHERE token = \(token) RETURNING token") > 0
    }

    public func setBackoff(_ until: Date?, for token: String) async throws {
        try await database.run("back off a push token", "UPDATE activity_push_token SET backoff_until = \(until) WHERE token = \(token)")
    }

    // MARK: Push-to-start tokens

    public func save(_ token: PushToStartToken) async throws {
        try await database.run(
            "save a push-to-start token",
            """
            INSERT INTO push_to_start_token (token, device_id, attributes_type, environment, created_at)
            VALUES (\(token.token), \(token.deviceID), \(token.attributesType), \(token.environment.rawValue), \(token.createdAt))
            ON CONFLICT (token) DO UPDATE SET device_id = excluded.device_id, attributes_type = excluded.attributes_type,
                environment = excluded.environment, created_at = excluded.created_at
            """)
    }

    public func pushToStartTokens(deviceID: String?, attributesType: String?) async throws -> [PushToStartToken] {
        try await database.rows(
            "list push-to-start tokens",
            """
            SELECT token, device_id, attributes_type, environment, created_at FROM push_to_start_token
            WHERE (\(deviceID)::text IS NULL OR device_id = \(deviceID)) AND (\(attributesType)::text IS NULL OR attributes_type = \(attributesType))
            ORDER BY created_at, token
            """
        ) { row in
            let (token, deviceID, type, environment, createdAt) = try row.decode((String, String, String, String, Date).self)
            return PushToStartToken(
                token: token, deviceID: deviceID, attributesType: type, environment: PushEnvironment(rawValue: environment) ?? .production,
                createdAt: createdAt)
        }
    }

    public func deletePushToStartToken(_ token: String) async throws -> Bool {
        try await database.run("delete a push-to-start token", "DELETE FROM push_to_start_token WHERE token = \(token) RETURNING token") > 0
    }

    // MARK: Channels

    static func channel(_ row: PostgresRow) throws -> BroadcastChannel {
        let (id, environment, policy, activityID, createdAt) = try row.decode((String, String, Int, String?, Date).self)
        return BroadcastChannel(
            id: id, environment: PushEnvironment(rawValue: environment) ?? .production, storagePolicy: policy, activityID: activityID,
            createdAt: createdAt)
    }

    public func save(_ channel: BroadcastChannel) async throws {
        try await database.run(
            "save a broadcast channel",
            """
            INSERT INTO broadcast_channel (id, environment, storage_policy, activity_id, created_at)
            VALUES (\(channel.id), \(channel.environment.rawValue), \(channel.storagePolicy), \(channel.activityID), \(channel.createdAt))
            ON CONFLICT (id) DO UPDATE SET environment = excluded.environment, storage_policy = excluded.storage_policy,
                activity_id = excluded.activity_id, created_at = excluded.created_at
            """)
    }

    public func channels() async throws -> [BroadcastChannel] {
        try await database.rows(
            "list broadcast channels", "SELECT id, environment, storage_policy, activity_id, created_at FROM broadcast_channel ORDER BY created_at, id",
            Self.channel)
    }

    public func channel(id: String) async throws -> BroadcastChannel? {
        try await database.rows(
            "read broadcast channel \(id)", "SELECT id, environment, storage_policy, activity_id, created_at FROM broadcast_channel WHERE id = \(id)",
            Self.channel
        ).first
    }

    public func deleteChannel(id: String) async throws -> Bool {
        try await database.run("delete broadcast channel \(id)", "DELETE FROM broadcast_channel WHERE id = \(id) RETURNING id") > 0
    }

    // MARK: Outcomes

    public func record(_ outcome: PushOutcomeRecord) async throws {
        let logger = database.logger
        try await database.transaction("record a push outcome") { connection in
            try await connection.query(
                """
                INSERT INTO push_outcome (activity_id, target, event, priority, result, status, reason, apns_id, attempts, at)
                VALUES (\(outcome.activityID), \(outcome.target), \(outcome.event), \(outcome.priority), \(outcome.result), \(outcome.status),
                        \(outcome.reason), \(outcome.apnsID), \(outcome.attempts), \(outcome.at))
                """, logger: logger)
            if let activityID = outcome.activityID {
                try await connection.query(
                    """
                    DELETE FROM push_outcome WHERE activity_id = \(activityID) AND id NOT IN
                      (SELECT id FROM push_outcome WHERE activity_id = \(activityID) ORDER BY id DESC LIMIT \(activityOutcomesKept))
                    """, logger: logger)
            }
        }
    }

    public func outcomes(activityID: String?, limit: Int) async throws -> [PushOutcomeRecord] {
        try await database.rows(
            "list push outcomes",
            """
            SELECT id, activity_id, target, event, priority, result, status, reason, apns_id, attempts, at FROM push_outcome
            WHERE \(activityID)::text IS NULL OR activity_id = \(activityID) ORDER BY id DESC LIMIT \(limit)
            """
        ) { row in
            let c = try row.decode((Int64, String?, String, String, Int, String, Int?, String?, String?, Int, Date).self)
            var outcome = PushOutcomeRecord(
                activityID: c.1, target: c.2, event: c.3, priority: c.4, result: c.5, status: c.6, reason: c.7, apnsID: c.8, attempts: c.9, at: c.10)
            outcome.id = c.0
            return outcome
        }
    }
}
