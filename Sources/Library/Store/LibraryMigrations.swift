import GRDB

/// The library's schema, one migration per change; never edit a shipped migration.
enum LibraryMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: assets, overrides, jobs, interstitials, settings") { db in
            try db.create(table: "asset") { t in
                t.primaryKey("id", .text)
                t.column("title", .text).notNull()
                t.column("subtitle", .text)
                t.column("summary", .text)
                t.column("duration", .double)
                t.column("width", .integer)
                t.column("height", .integer)
                t.column("sourcePath", .text)
                t.column("sourceMissing", .boolean).notNull().defaults(to: false)
                t.column("status", .text).notNull()
                t.column("role", .text).notNull().defaults(to: "feature")
                t.column("badges", .jsonText).notNull().defaults(to: "[]")
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "metadataOverride") { t in
                t.primaryKey("assetID", .text).references("asset", onDelete: .cascade)
                t.column("title", .text)
                t.column("subtitle", .text)
                t.column("summary", .text)
                t.column("artworkURL", .text)
            }
            try db.create(table: "ingestJob") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("assetID", .text).notNull().indexed().references("asset", onDelete: .cascade)
                t.column("state", .text).notNull().indexed()
                t.column("progress", .double).notNull().defaults(to: 0)
                t.column("message", .text)
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "interstitial") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("assetID", .text).notNull().indexed().references("asset", onDelete: .cascade)
                t.column("interstitialAssetID", .text).notNull().references("asset", onDelete: .cascade)
                t.column("time", .double).notNull()
                t.column("cue", .text).notNull().defaults(to: "none")
                t.column("resumptionOffset", .double).notNull().defaults(to: 0)
                t.column("restricted", .boolean).notNull().defaults(to: true)
            }
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v2: series and episodes, release and live dates, trash, playback positions") { db in
            try db.alter(table: "asset") { t in
                t.add(column: "seriesTitle", .text)
                t.add(column: "seasonNumber", .integer)
                t.add(column: "episodeNumber", .integer)
                t.add(column: "episodeTitle", .text)
                t.add(column: "releaseDate", .text)
                t.add(column: "liveStartDate", .datetime)
                t.add(column: "liveEndDate", .datetime)
                t.add(column: "deletedAt", .datetime)
            }
            try db.create(index: "asset_on_deletedAt", on: "asset", columns: ["deletedAt"])
            try db.alter(table: "metadataOverride") { t in
                t.add(column: "seriesTitle", .text)
                t.add(column: "seasonNumber", .integer)
                t.add(column: "episodeNumber", .integer)
                t.add(column: "episodeTitle", .text)
                t.add(column: "releaseDate", .text)
                t.add(column: "liveStartDate", .datetime)
                t.add(column: "liveEndDate", .datetime)
            }
            try db.alter(table: "ingestJob") { t in
                // A stable code for why a job failed ("notMedia", "sourceMissing"…), for the page to translate.
                t.add(column: "failureReason", .text)
            }
            try db.create(table: "playbackPosition") { t in
                t.primaryKey("assetID", .text).references("asset", onDelete: .cascade)
                t.column("position", .double).notNull()
                t.column("duration", .double)
                t.column("updatedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v3: protected assets (never analysed for Live Text)") { db in
            try db.alter(table: "asset") { t in
                t.add(column: "isProtected", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("v4 (cluster): ingest job leases and retry times") { db in
            try db.alter(table: "ingestJob") { t in
                // Which worker runs the job, until when (its heartbeat extends it), and when a retry may start.
                t.add(column: "leaseOwner", .text)
                t.add(column: "leaseExpiresAt", .datetime)
                t.add(column: "runAfter", .datetime)
            }
        }
        InterstitialEventMigration.register(in: &migrator)
        SubtitleFileMigration.register(in: &migrator)
        migrator.registerMigration("v5 (home): viewing progress per viewer") { db in
            try db.create(table: "viewingProgress") { t in
                t.column("viewer", .text).notNull()
                t.column("assetID", .text).notNull().references("asset", onDelete: .cascade)
                t.column("position", .double).notNull()
                t.column("duration", .double)
                t.column("finished", .boolean).notNull().defaults(to: false)
                t.column("updatedAt", .datetime).notNull()
                t.primaryKey(["viewer", "assetID"])
            }
            try db.create(index: "viewingProgress_on_viewer_updatedAt", on: "viewingProgress", columns: ["viewer", "updatedAt"])
        }
        return migrator
    }
}
