public import Accounts
public import Foundation
import PostgresNIO

/// Accounts and their credentials in PostgreSQL, shared by every server node: an account
/// made through node A signs in on node B, and signing out or revoking a token on one node
/// holds on all of them (each node's `AccountService` caches a resolved credential for at
/// most its `cacheLifetime`, or until `changesFromOtherNodes()` says to forget it). The owner
/// rules run under an advisory lock, so two nodes cannot both create the first owner or both
/// demote one of the last two.
public final class PostgreSQLAccountStore: AccountStore {
    let database: PostgreSQLConnection
    /// Serialises the owner checks across nodes.
    static let ownerLockKey: Int64 = 0x6D71_6163_636F_756E  // "mqaccoun"

    /// Tells this store's notices from other nodes'.
    let origin = UUID().uuidString
    /// The channel on which a change that could revoke a credential is announced.
    public static let channel = "marquee_accounts"

    /// Uses the library store's connections and schema (migrations run when it opened).
    public init(sharing library: PostgreSQLLibraryStore) {
        database = PostgreSQLConnection(library)
    }

    /// Yields each time another node changed something that could revoke a credential (a
    /// sign-out, a revoked token, a password or role changed, an account removed), so a
    /// node's cache of resolved credentials can be emptied at once. Listens on its own pooled
    /// connection, reconnecting after a drop, until the stream is dropped.
    public func changesFromOtherNodes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (client, origin) = (database.client, origin)
        let task = Task {
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notices in
                            for try await notice in notices where notice.payload != origin { continuation.yield() }
                        }
                    }
                } catch {
                    if Task.isCancelled { break }
                    // Missed notices while down: forget everything once back.
                    continuation.yield()
                    try? await Task.sleep(for: .milliseconds(500))
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Announces a change that could revoke a credential (inside the caller's transaction, if any).
    func announce(on connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_notify(\(Self.channel), \(origin))", logger: database.logger)
    }

    static let accountColumns = "id, name, role, password_hash, created_at"
    static let credentialColumns = "id, account_id, kind, secret_digest, label, created_at, last_used_at, expires_at"

    static func account(_ row: PostgresRow) throws -> Account {
        let (id, name, roleText, hash, createdAt) = try row.decode((Int64, String, String, String, Date).self)
        guard let role = Role(rawValue: roleText) else { throw AccountError.invalidName("account \(name) has an unknown role \(roleText)") }
        return Account(id: id, name: name, role: role, passwordHash: hash, createdAt: createdAt)
    }

    static func credential(_ row: PostgresRow) throws -> Credential {
        let (id, accountID, kindText, digest, label, createdAt, lastUsedAt, expiresAt) =
            try row.decode((String, Int64, String, Data, String, Date, Date, Date?).self)
        return Credential(
            id: id, accountID: accountID, kind: Credential.Kind(rawValue: kindText) ?? .session, secretDigest: digest, label: label,
            createdAt: createdAt, lastUsedAt: lastUsedAt, expiresAt: expiresAt)
    }

    public func accounts() async throws -> [Account] {
        try await database.rows("list accounts", "SELECT \(unescaped: Self.accountColumns) FROM account ORDER BY lower(name), name", Self.account)
    }

    public func account(named name: String) async throws -> Account? {
        try await database.rows(
            "read account \(name)", "SELECT \(unescaped: Self.accountColumns) FROM account WHERE lower(name) = lower(\(name))", Self.account
        ).first
    }

    public func account(id: Int64) async throws -> Account? {
        try await database.rows("read account \(id)", "SELECT \(unescaped: Self.accountColumns) FROM account WHERE id = \(id)", Self.account).first
    }

    public func hasOwner() async throws -> Bool {
        try await database.run("look for an owner", "SELECT 1 FROM account WHERE role = \(Role.owner.rawValue) LIMIT 1") > 0
    }

    static func ownerCount(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        for try await count in try await connection.query("SELECT count(*) FROM account WHERE role = \(Role.owner.rawValue)", logger: logger)
            .decode(Int.self)
        {
            return count
        }
        return 0
    }

    func lockOwners(_ connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.ownerLockKey))", logger: database.logger)
    }

    public func insert(_ account: Account, onlyIfNoOwner: Bool) async throws -> Account {
        let logger = database.logger
        return try await database.transaction("add account \(account.name)") { connection in
            try await self.lockOwners(connection)
            if onlyIfNoOwner, try await Self.ownerCount(connection, logger: logger) > 0 { throw AccountError.ownerExists }
            let taken = try await PostgreSQLConnection.count(
                connection.query("SELECT 1 FROM account WHERE lower(name) = lower(\(account.name))", logger: logger))
            if taken > 0 { throw AccountError.nameTaken(account.name) }
            let rows = try await connection.query(
                """
                INSERT INTO account (name, role, password_hash, created_at)
                VALUES (\(account.name), \(account.role.rawValue), \(account.passwordHash), \(account.createdAt)) RETURNING id
                """, logger: logger)
            var stored = account
            for try await id in rows.decode(Int64.self) { stored.id = id }
            return stored
        }
    }

    public func update(_ account: Account) async throws {
        let logger = database.logger
        try await database.transaction("change account \(account.name)") { connection in
            try await self.lockOwners(connection)
            guard let id = account.id,
                let old = try await Self.first(connection.query("SELECT \(unescaped: Self.accountColumns) FROM account WHERE id = \(id)", logger: logger))
            else { throw AccountError.accountNotFound(account.name) }
            if old.role == .owner, account.role != .owner, try await Self.ownerCount(connection, logger: logger) <= 1 { throw AccountError.lastOwner }
            try await connection.query(
                """
                UPDATE account SET name = \(account.name), role = \(account.role.rawValue), password_hash = \(account.passwordHash),
                    created_at = \(account.createdAt) WHERE id = \(id)
                """, logger: logger)
            try await self.announce(on: connection)
        }
    }

    public func delete(named name: String) async throws {
        let logger = database.logger
        try await database.transaction("remove account \(name)") { connection in
            try await self.lockOwners(connection)
            guard
                let account = try await Self.first(
                    connection.query("SELECT \(unescaped: Self.accountColumns) FROM account WHERE lower(name) = lower(\(name))", logger: logger)),
                let id = account.id
            else { throw AccountError.accountNotFound(name) }
            if account.role == .owner, try await Self.ownerCount(connection, logger: logger) <= 1 { throw AccountError.lastOwner }
            try await connection.query("DELETE FROM account WHERE id = \(id)", logger: logger)
            try await self.announce(on: connection)
        }
    }

    static func first(_ rows: PostgresRowSequence) async throws -> Account? {
        var found: Account?
        for try await row in rows where found == nil { found = try account(row) }
        return found
    }

    // MARK: Credentials

    public func insert(_ credential: Credential, limitingTokensTo limit: Int?) async throws {
        let logger = database.logger
        try await database.transaction("store a credential") { connection in
            if let limit, credential.kind == .token {
                // One account's token inserts queue up behind each other, so the limit holds across nodes.
                try await connection.query("SELECT 1 FROM account WHERE id = \(credential.accountID) FOR UPDATE", logger: logger)
                var held = 0
                for try await count in try await connection.query(
                    "SELECT count(*) FROM credential WHERE account_id = \(credential.accountID) AND kind = 'token'", logger: logger
                ).decode(Int.self) {
                    held = count
                }
                if held >= limit { throw AccountError.tooManyCredentials(limit) }
            }
            if credential.kind == .session {
                // Forget expired sessions as new ones are made, so the table does not grow forever.
                try await connection.query("DELETE FROM credential WHERE expires_at < \(Date())", logger: logger)
            }
            try await connection.query(
                """
                INSERT INTO credential (id, account_id, kind, secret_digest, label, created_at, last_used_at, expires_at)
                VALUES (\(credential.id), \(credential.accountID), \(credential.kind.rawValue), \(credential.secretDigest), \(credential.label),
                        \(credential.createdAt), \(credential.lastUsedAt), \(credential.expiresAt))
                """, logger: logger)
        }
    }

    public func credential(digest: Data, now: Date) async throws -> (Credential, Account)? {
        let found = try await database.rows(
            "look up a credential",
            """
            SELECT \(unescaped: Self.credentialColumns.split(separator: ",").map { "c." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                   a.id, a.name, a.role, a.password_hash, a.created_at
            FROM credential c JOIN account a ON a.id = c.account_id
            WHERE c.secret_digest = \(digest) AND (c.expires_at IS NULL OR c.expires_at > \(now))
            """
        ) { row -> (Credential, Account) in
            let columns = try row.decode((String, Int64, String, Data, String, Date, Date, Date?, Int64, String, String, String, Date).self)
            let credential = Credential(
                id: columns.0, accountID: columns.1, kind: Credential.Kind(rawValue: columns.2) ?? .session, secretDigest: columns.3,
                label: columns.4, createdAt: columns.5, lastUsedAt: columns.6, expiresAt: columns.7)
            guard let role = Role(rawValue: columns.10) else { throw AccountError.invalidName("account \(columns.9) has an unknown role") }
            return (credential, Account(id: columns.8, name: columns.9, role: role, passwordHash: columns.11, createdAt: columns.12))
        }
        return found.first
    }

    public func credentials(accountID: Int64, kind: Credential.Kind) async throws -> [Credential] {
        try await database.rows(
            "list credentials",
            "SELECT \(unescaped: Self.credentialColumns) FROM credential WHERE account_id = \(accountID) AND kind = \(kind.rawValue) ORDER BY created_at, id",
            Self.credential)
    }

    public func touch(id: String, at date: Date, expiresAt: Date?) async throws {
        try await database.run(
            "mark a credential used", "UPDATE credential SET last_used_at = \(date), expires_at = COALESCE(\(expiresAt), expires_at) WHERE id = \(id)")
    }

    public func deleteCredential(id: String, accountID: Int64) async throws -> Bool {
        let logger = database.logger
        return try await database.transaction("delete a credential") { connection in
            let deleted = try await PostgreSQLConnection.count(
                connection.query("DELETE FROM credential WHERE id = \(id) AND account_id = \(accountID) RETURNING id", logger: logger))
            if deleted > 0 { try await self.announce(on: connection) }
            return deleted > 0
        }
    }

    public func deleteSessions(accountID: Int64) async throws {
        let logger = database.logger
        try await database.transaction("sign an account out") { connection in
            try await connection.query("DELETE FROM credential WHERE account_id = \(accountID) AND kind = 'session'", logger: logger)
            try await self.announce(on: connection)
        }
    }
}
