public import Foundation
import GRDB
import SQLiteDatabase

/// The accounts database, `accounts.sqlite` beside the library's: accounts and their
/// credentials. A WAL-mode pool; GRDB runs every access on its own queues.
public final class SQLiteAccountStore: AccountStore {
    let database: DatabasePool

    public init(url: URL) throws {
        database = try SQLiteDatabase.openPool(at: url, migrator: Self.migrator)
    }

    /// Every migration of the accounts file, oldest first.
    public static var migrationIdentifiers: [String] { migrator.migrations }

    /// Brings the accounts file at `url` up to date (creating it if needed); returns the migrations it applied.
    public static func migrate(url: URL) throws -> [String] {
        let pool = try SQLiteDatabase.openPool(at: url, migrator: nil)
        defer { try? pool.close() }
        return try SQLiteDatabase.migrate(pool, with: migrator)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: accounts and credentials") { db in
            try db.create(table: "account") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique().collate(.nocase)
                t.column("role", .text).notNull()
                t.column("passwordHash", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "credential") { t in
                t.primaryKey("id", .text)
                t.column("accountID", .integer).notNull().indexed().references("account", onDelete: .cascade)
                t.column("kind", .text).notNull()
                t.column("secretDigest", .blob).notNull().unique()
                t.column("label", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("lastUsedAt", .datetime).notNull()
                t.column("expiresAt", .datetime)
            }
        }
        return migrator
    }

    public func accounts() async throws -> [Account] {
        try await database.read { db in try Account.order(Account.Columns.name).fetchAll(db) }
    }

    public func account(named name: String) async throws -> Account? {
        try await database.read { db in try Account.filter(Account.Columns.name.collating(.nocase) == name).fetchOne(db) }
    }

    public func account(id: Int64) async throws -> Account? {
        try await database.read { db in try Account.fetchOne(db, key: id) }
    }

    public func hasOwner() async throws -> Bool {
        try await database.read { db in try Account.filter(Account.Columns.role == Role.owner.rawValue).fetchCount(db) > 0 }
    }

    public func insert(_ account: Account, onlyIfNoOwner: Bool) async throws -> Account {
        try await database.write { db in
            if onlyIfNoOwner, try Account.filter(Account.Columns.role == Role.owner.rawValue).fetchCount(db) > 0 {
                throw AccountError.ownerExists
            }
            if try Account.filter(Account.Columns.name.collating(.nocase) == account.name).fetchCount(db) > 0 {
                throw AccountError.nameTaken(account.name)
            }
            var row = account
            try row.insert(db)
            return row
        }
    }

    /// Changes an account's role or password hash; refuses to demote the last owner.
    public func update(_ account: Account) async throws {
        try await database.write { db in
            guard let old = try Account.fetchOne(db, key: account.id) else { throw AccountError.accountNotFound(account.name) }
            if old.role == .owner, account.role != .owner, try Self.ownerCount(db) <= 1 { throw AccountError.lastOwner }
            try account.update(db)
        }
    }

    /// Deletes an account and every credential it holds; refuses the last owner.
    public func delete(named name: String) async throws {
        try await database.write { db in
            guard let account = try Account.filter(Account.Columns.name.collating(.nocase) == name).fetchOne(db) else {
                throw AccountError.accountNotFound(name)
            }
            if account.role == .owner, try Self.ownerCount(db) <= 1 { throw AccountError.lastOwner }
            _ = try account.delete(db)
        }
    }

    static func ownerCount(_ db: Database) throws -> Int {
        try Account.filter(Account.Columns.role == Role.owner.rawValue).fetchCount(db)
    }

    // MARK: Credentials

    public func insert(_ credential: Credential, limitingTokensTo limit: Int?) async throws {
        try await database.write { db in
            if let limit, credential.kind == .token,
                try Credential.filter(Credential.Columns.accountID == credential.accountID && Credential.Columns.kind == Credential.Kind.token.rawValue)
                    .fetchCount(db) >= limit
            {
                throw AccountError.tooManyCredentials(limit)
            }
            if credential.kind == .session {
                // Forget expired sessions as new ones are made, so the table does not grow forever.
                try Credential.filter(Credential.Columns.expiresAt < Date()).deleteAll(db)
            }
            try credential.insert(db)
        }
    }

    /// The credential with this secret digest and its account, if it has not expired.
    public func credential(digest: Data, now: Date) async throws -> (Credential, Account)? {
        try await database.read { db in
            guard let credential = try Credential.filter(Credential.Columns.secretDigest == digest).fetchOne(db) else { return nil }
            if let expires = credential.expiresAt, expires <= now { return nil }
            guard let account = try Account.fetchOne(db, key: credential.accountID) else { return nil }
            return (credential, account)
        }
    }

    public func credentials(accountID: Int64, kind: Credential.Kind) async throws -> [Credential] {
        try await database.read { db in
            try Credential.filter(Credential.Columns.accountID == accountID && Credential.Columns.kind == kind.rawValue)
                .order(Credential.Columns.createdAt).fetchAll(db)
        }
    }

    /// Marks a credential used (and slides a session's expiry).
    public func touch(id: String, at date: Date, expiresAt: Date?) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE credential SET lastUsedAt = ?, expiresAt = COALESCE(?, expiresAt) WHERE id = ?",
                arguments: [date, expiresAt, id])
        }
    }

    /// Deletes one credential of an account; false when there was none.
    @discardableResult
    public func deleteCredential(id: String, accountID: Int64) async throws -> Bool {
        try await database.write { db in
            try Credential.filter(Credential.Columns.id == id && Credential.Columns.accountID == accountID).deleteAll(db) > 0
        }
    }

    /// Deletes every session of an account (a password change signs out everywhere).
    public func deleteSessions(accountID: Int64) async throws {
        try await database.write { db in
            _ = try Credential.filter(Credential.Columns.accountID == accountID && Credential.Columns.kind == Credential.Kind.session.rawValue).deleteAll(db)
        }
    }
}
