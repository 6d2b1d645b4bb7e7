import Foundation
import GRDB

/// Where authored interstitials live: the `interstitialEvent` table (one row per event, the
/// event as JSON beside its asset and time). Everything the library does with them goes
/// through these few functions, so another store can take them over.
extension SQLiteLibraryStore {
    /// The asset's events in timeline order (pre-rolls first, post-rolls last). Events
    /// scheduled the older way (`schedule(_:)`, the sample ad) are adopted on the way:
    /// moved into this table, so there is one list to edit.
    public func authoredInterstitials(for assetID: String) async throws -> [AuthoredInterstitial] {
        let hasLegacyRows = try await database.read { db in
            try ScheduledInterstitial.filter(ScheduledInterstitial.Columns.assetID == assetID).fetchCount(db) > 0
        }
        guard hasLegacyRows else {
            return try await database.read { db in try InterstitialEventRow.events(for: assetID, in: db) }
        }
        return try await database.write { db in
            try InterstitialEventRow.adoptLegacyRows(for: assetID, in: db)
            return try InterstitialEventRow.events(for: assetID, in: db)
        }
    }

    /// Validates and stores a new event (a fresh ID) or replaces the one with `event.id`.
    /// `validate` gets the asset's other events and returns the event to store.
    public func saveAuthoredInterstitial(
        _ event: AuthoredInterstitial, replacing: Bool,
        validate: @Sendable (AuthoredInterstitial, [AuthoredInterstitial]) throws -> AuthoredInterstitial
    ) async throws -> AuthoredInterstitial {
        try await database.write { db in
            try InterstitialEventRow.adoptLegacyRows(for: event.assetID, in: db)
            let existing = try InterstitialEventRow.events(for: event.assetID, in: db)
            if replacing, !existing.contains(where: { $0.id == event.id }) {
                throw InterstitialValidationError.notFound(event.id)
            }
            var stored = try validate(event, existing.filter { $0.id != event.id })
            stored.assetID = event.assetID
            stored.id = replacing ? event.id : "ev-" + UUID().uuidString.prefix(8).lowercased()
            try InterstitialEventRow(stored).save(db)
            return stored
        }
    }

    /// Deletes one event; throws `InterstitialValidationError.notFound` when the asset has none with that ID.
    public func deleteAuthoredInterstitial(id: String, assetID: String) async throws {
        try await database.write { db in
            try InterstitialEventRow.adoptLegacyRows(for: assetID, in: db)
            let deleted = try InterstitialEventRow.filter(InterstitialEventRow.Columns.id == id && InterstitialEventRow.Columns.assetID == assetID).deleteAll(
                db)
            if deleted == 0 { throw InterstitialValidationError.notFound(id) }
        }
    }
}

/// One row of `interstitialEvent`.
struct InterstitialEventRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "interstitialEvent"
    var id: String
    var assetID: String
    /// Where it sorts: pre-rolls at -1, post-rolls at +infinity's stand-in.
    var position: Double
    var body: String
    var createdAt: Date

    /// The columns that queries filter and sort on.
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let assetID = Column(CodingKeys.assetID)
        static let position = Column(CodingKeys.position)
        static let createdAt = Column(CodingKeys.createdAt)
    }

    init(_ event: AuthoredInterstitial) throws {
        id = event.id
        assetID = event.assetID
        position = event.sortPosition
        body = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        createdAt = Date()
    }

    static func events(for assetID: String, in db: Database) throws -> [AuthoredInterstitial] {
        try InterstitialEventRow.filter(Columns.assetID == assetID).order(Columns.position, Columns.createdAt, Columns.id)
            .fetchAll(db)
            .map { try JSONDecoder().decode(AuthoredInterstitial.self, from: Data($0.body.utf8)) }
    }

    /// Moves the asset's rows of the older `interstitial` table into this one (they keep their
    /// meaning: a library ad, restricted both ways when `restricted`, played once per session).
    static func adoptLegacyRows(for assetID: String, in db: Database) throws {
        let legacy = try ScheduledInterstitial.filter(ScheduledInterstitial.Columns.assetID == assetID).order(ScheduledInterstitial.Columns.time).fetchAll(db)
        guard !legacy.isEmpty else { return }
        for row in legacy {
            let ad = try Asset.fetchOne(db, key: row.interstitialAssetID)
            try InterstitialEventRow(AuthoredInterstitial(adopting: row, adDuration: ad?.duration)).save(db)
        }
        try ScheduledInterstitial.filter(ScheduledInterstitial.Columns.assetID == assetID).deleteAll(db)
    }
}

/// The migration that adds `interstitialEvent`; registered by `LibraryMigrations`.
enum InterstitialEventMigration {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4: authored interstitial events") { db in
            try db.create(table: "interstitialEvent") { t in
                t.primaryKey("id", .text)
                t.column("assetID", .text).notNull().indexed().references("asset", onDelete: .cascade)
                t.column("position", .double).notNull()
                t.column("body", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
        }
    }
}

extension AuthoredInterstitial {
    /// Where the event sorts on its asset's timeline: pre-rolls first, post-rolls last.
    public var sortPosition: Double {
        switch cue {
        case .pre: -1
        case .post: 1e12
        case .none: time
        }
    }

    /// An event scheduled the older way (`ScheduledInterstitial`), with its meaning kept: a
    /// library ad, restricted both ways when `restricted`, played once per session.
    public init(adopting row: ScheduledInterstitial, adDuration: Double?) {
        let cue: Cue =
            switch row.cue {
            case "joinCue": .pre
            case "leaveCue": .post
            default: .none
            }
        self.init(
            id: "legacy-\(row.id ?? 0)", assetID: row.assetID, time: row.time, cue: cue, once: true,
            content: .init(assetID: row.interstitialAssetID), duration: adDuration, resumptionOffset: row.resumptionOffset,
            restrictions: .init(skip: row.restricted, jump: row.restricted))
    }
}
