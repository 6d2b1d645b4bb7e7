import GRDB

/// The activity tables, one migration per change; never edit a shipped migration. They live
/// in the library's SQLite file beside the library's own tables (whose migrator ignores
/// these identifiers, as this one ignores the library's).
enum ActivityMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("live activities v1: activities, push tokens, push-to-start tokens, channels, outcomes") { db in
            try db.create(table: "liveActivity") { t in
                t.primaryKey("id", .text)
                t.column("type", .text).notNull()
                t.column("attributes", .jsonText).notNull()
                t.column("content", .jsonText).notNull()
                t.column("phase", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("startDate", .datetime).notNull()
                t.column("timestamp", .datetime).notNull()
                t.column("endedAt", .datetime)
                t.column("dismissalDate", .datetime)
                t.column("alert", .jsonText)
                t.column("alertDate", .datetime)
                t.column("endedBySystem", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "activityPushToken") { t in
                t.primaryKey("token", .text)
                t.column("activityID", .text).notNull().indexed().references("liveActivity", onDelete: .cascade)
                t.column("deviceID", .text).notNull()
                t.column("environment", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("backoffUntil", .datetime)
            }
            try db.create(table: "pushToStartToken") { t in
                t.primaryKey("token", .text)
                t.column("deviceID", .text).notNull().indexed()
                t.column("attributesType", .text).notNull()
                t.column("environment", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "broadcastChannel") { t in
                t.primaryKey("id", .text)
                t.column("environment", .text).notNull()
                t.column("storagePolicy", .integer).notNull()
                t.column("activityID", .text)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "pushOutcome") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("activityID", .text).indexed()
                t.column("target", .text).notNull()
                t.column("event", .text).notNull()
                t.column("priority", .integer).notNull()
                t.column("result", .text).notNull()
                t.column("status", .integer)
                t.column("reason", .text)
                t.column("apnsID", .text)
                t.column("attempts", .integer).notNull()
                t.column("at", .datetime).notNull()
            }
        }
        return migrator
    }
}
