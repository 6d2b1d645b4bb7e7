public import Foundation
public import GRDB

/// A person who can sign in.
public struct Account: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    /// The row's ID; nil until the account is stored.
    public var id: Int64?
    /// The name it signs in with.
    public var name: String
    /// What it may do.
    public var role: Role
    /// The password as `PasswordHasher` stores it (`$scrypt$…`), never the password.
    public var passwordHash: String
    /// When the account was created.
    public var createdAt: Date

    /// The SQLite table that holds accounts.
    public static let databaseTableName = "account"

    /// An account with the given fields, not stored yet unless `id` is given.
    public init(id: Int64? = nil, name: String, role: Role, passwordHash: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }

    /// Takes the row ID SQLite gave the inserted account.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns {
        /// `name`.
        public static let name = Column(CodingKeys.name)
        /// `role`.
        public static let role = Column(CodingKeys.role)
    }
}

/// A sign-in session or an API token, as stored: its secret only as a digest.
public struct Credential: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    /// A browser's sign-in session, or an API token.
    public enum Kind: String, Codable, Sendable { case session, token }

    /// A short public ID for listing and revoking, derived from nothing secret.
    public var id: String
    /// The account it signs in as.
    public var accountID: Int64
    /// Session or token.
    public var kind: Kind
    /// The SHA-256 of the secret.
    public var secretDigest: Data
    /// What the token is for ("backup script"); for sessions, the browser's User-Agent.
    public var label: String
    /// When it was issued.
    public var createdAt: Date
    /// When a request last used it.
    public var lastUsedAt: Date
    /// When it stops working; sessions slide forward as they are used, tokens may have none.
    public var expiresAt: Date?

    /// The SQLite table that holds credentials.
    public static let databaseTableName = "credential"

    /// A credential with the given fields.
    public init(
        id: String, accountID: Int64, kind: Kind, secretDigest: Data, label: String, createdAt: Date, lastUsedAt: Date, expiresAt: Date?
    ) {
        self.id = id
        self.accountID = accountID
        self.kind = kind
        self.secretDigest = secretDigest
        self.label = label
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
    }

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let accountID = Column(CodingKeys.accountID)
        public static let kind = Column(CodingKeys.kind)
        public static let secretDigest = Column(CodingKeys.secretDigest)
        public static let createdAt = Column(CodingKeys.createdAt)
        public static let expiresAt = Column(CodingKeys.expiresAt)
    }
}

/// Where accounts and their credentials (sign-in sessions and API tokens) are kept.
///
/// Two implementations share this contract and one test suite: `SQLiteAccountStore` (GRDB,
/// `accounts.sqlite` in the data directory, the single-machine default) and the PostgreSQL
/// store in `PostgreSQLStores`, which several server nodes share so an account made on one
/// signs in on every other. Names are unique regardless of case; the rules about owners (the
/// last one cannot go, the first-run race) are enforced inside the store's transaction.
public protocol AccountStore: Sendable {
    /// Every account, by name.
    func accounts() async throws -> [Account]
    /// The account with this name, compared regardless of case.
    func account(named name: String) async throws -> Account?
    func account(id: Int64) async throws -> Account?
    func hasOwner() async throws -> Bool
    /// Inserts `account` and returns it with its new `id`; with `onlyIfNoOwner`, fails with
    /// `ownerExists` when an owner appeared meanwhile (two first-run setups racing); fails with
    /// `nameTaken` when the name is used.
    func insert(_ account: Account, onlyIfNoOwner: Bool) async throws -> Account
    /// Changes an account's role or password hash; refuses to demote the last owner.
    func update(_ account: Account) async throws
    /// Deletes an account and every credential it holds; refuses the last owner.
    func delete(named name: String) async throws
    /// Stores a credential; with `limit`, refuses (`tooManyCredentials`) a token beyond it.
    /// Storing a session forgets expired ones.
    func insert(_ credential: Credential, limitingTokensTo limit: Int?) async throws
    /// The credential with this secret digest and its account, if it has not expired.
    func credential(digest: Data, now: Date) async throws -> (Credential, Account)?
    /// An account's sessions or tokens, oldest first.
    func credentials(accountID: Int64, kind: Credential.Kind) async throws -> [Credential]
    /// Marks a credential used (and slides a session's expiry when `expiresAt` is given).
    func touch(id: String, at date: Date, expiresAt: Date?) async throws
    /// Deletes one credential of an account; false when there was none.
    @discardableResult
    func deleteCredential(id: String, accountID: Int64) async throws -> Bool
    /// Deletes every session of an account (a password change signs out everywhere).
    func deleteSessions(accountID: Int64) async throws
}

extension AccountStore {
    public func insert(_ account: Account) async throws -> Account {
        try await insert(account, onlyIfNoOwner: false)
    }

    public func insert(_ credential: Credential) async throws {
        try await insert(credential, limitingTokensTo: nil)
    }

    public func credential(digest: Data) async throws -> (Credential, Account)? {
        try await credential(digest: digest, now: Date())
    }
}
