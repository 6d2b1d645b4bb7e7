public import Foundation
import Synchronization

/// Accounts, sign-in and API tokens for one server: the rules around `AccountStore`.
///
/// Looking up who a request is costs one SHA-256 and, most of the time, one dictionary read:
/// resolved credentials are cached for `cacheLifetime`, and every change that could revoke one
/// (sign-out, token revoked, account removed or demoted, password changed) empties the cache.
public final class AccountService: Sendable {
    public let store: any AccountStore
    public let hasher: PasswordHasher
    /// How long a sign-in session lasts without being used.
    public let sessionLifetime: TimeInterval
    /// How long a resolved credential is trusted before the database is asked again.
    public let cacheLifetime: TimeInterval
    /// How long a cached credential still holds while the store cannot be asked (an outage).
    public static let outageGrace: TimeInterval = 15 * 60
    /// Most API tokens one account may hold.
    public static let maximumTokensPerAccount = 50

    struct Cached {
        var principal: Principal
        var credential: Credential
        var checkedAt: Date
    }
    private let cache = Mutex<[Data: Cached]>([:])
    private let revocationCount = Atomic<UInt64>(0)
    /// Consecutive failed sign-ins by account name, for a per-account slowdown that works even
    /// when guesses come from many addresses.
    private let failures = Mutex<[String: (count: Int, last: Date)]>([:])
    private let code = Mutex<SetupCode?>(nil)

    public init(
        store: any AccountStore, hasher: PasswordHasher = .standard,
        sessionLifetime: TimeInterval = 30 * 24 * 3600, cacheLifetime: TimeInterval = 30
    ) {
        self.store = store
        self.hasher = hasher
        self.sessionLifetime = sessionLifetime
        self.cacheLifetime = cacheLifetime
    }

    // MARK: First run

    /// Whether no owner exists yet.
    public func needsOwner() async throws -> Bool { try await !store.hasOwner() }

    /// The setup code for this run, made on first use; nil once an owner exists.
    public func setupCode() async throws -> SetupCode? {
        guard try await needsOwner() else { return nil }
        return code.withLock { current in
            if let current { return current }
            let fresh = SetupCode.generate()
            current = fresh
            return fresh
        }
    }

    /// Creates the first owner. `setupCode` must match this run's code unless `trustedCaller`
    /// (the person at the machine of a loopback-bound server, or the command line).
    public func createOwner(name: String, password: String, setupCode attempt: String?, trustedCaller: Bool) async throws -> Account {
        if !trustedCaller {
            let current = code.withLock { $0 }
            guard let current, let attempt, current.matches(attempt) else {
                if try await !needsOwner() { throw AccountError.ownerExists }
                throw AccountError.wrongSetupCode
            }
        }
        let account = try await makeAccount(name: name, password: password, role: .owner)
        let created = try await store.insert(account, onlyIfNoOwner: true)
        code.withLock { $0 = nil }
        return created
    }

    // MARK: Accounts

    public func createAccount(name: String, password: String, role: Role) async throws -> Account {
        try await store.insert(makeAccount(name: name, password: password, role: role))
    }

    func makeAccount(name: String, password: String, role: Role) async throws -> Account {
        try Self.validate(name: name)
        try Self.validate(password: password, name: name)
        return Account(id: nil, name: name, role: role, passwordHash: try await hasher.hash(password), createdAt: Date())
    }

    public func setRole(_ role: Role, forAccountNamed name: String) async throws {
        guard var account = try await store.account(named: name) else { throw AccountError.accountNotFound(name) }
        account.role = role
        try await store.update(account)
        invalidate()
    }

    /// Sets a new password and signs the account out of every browser.
    public func setPassword(_ password: String, forAccountNamed name: String) async throws {
        guard var account = try await store.account(named: name), let id = account.id else { throw AccountError.accountNotFound(name) }
        try Self.validate(password: password, name: account.name)
        account.passwordHash = try await hasher.hash(password)
        try await store.update(account)
        try await store.deleteSessions(accountID: id)
        invalidate()
    }

    public func deleteAccount(named name: String) async throws {
        try await store.delete(named: name)
        invalidate()
    }

    /// The rule for a new account's name, as a JSON Schema `pattern`: 1 to 64 of the ASCII
    /// letters and digits, `.`, `_`, `-` and `@`. `openapi.json` states this same text for the
    /// names it creates (`OpenAPIDocumentTests` checks that), and `validate(name:)` checks
    /// nothing else. (Signing in looks any name up; older names need not match.)
    public static let namePattern = #"^[A-Za-z0-9._@-]{1,64}$"#

    /// The shortest and longest password, in Unicode scalars (JSON Schema's `minLength` and
    /// `maxLength` count the same way); 256 scalars are at most 1024 bytes of UTF-8.
    public static let passwordLengths = 8...256

    /// `namePattern`, compiled once (NSRegularExpression is immutable and safe to share).
    nonisolated(unsafe) private static let nameExpression = try! NSRegularExpression(pattern: namePattern)

    static func validate(name: String) throws {
        let whole = NSRange(name.startIndex..., in: name)
        guard let match = nameExpression.firstMatch(in: name, options: [.anchored], range: whole), match.range == whole else {
            throw AccountError.invalidName("use 1 to 64 of the letters A to Z and a to z, the digits 0 to 9, '.', '_', '-' and '@'")
        }
    }

    static func validate(password: String, name: String) throws {
        guard password.unicodeScalars.count >= passwordLengths.lowerBound else { throw AccountError.weakPassword("use at least 8 characters") }
        guard password.unicodeScalars.count <= passwordLengths.upperBound else { throw AccountError.weakPassword("use at most 256 characters") }
        guard password.lowercased() != name.lowercased() else { throw AccountError.weakPassword("it must not be the account name") }
    }

    // MARK: Signing in

    /// Checks a name and password and opens a session; the secret goes in the cookie.
    /// Unknown names cost as much time as wrong passwords.
    public func signIn(name: String, password: String, label: String, now: Date = Date()) async throws -> (Principal, CredentialSecret) {
        let key = name.lowercased()
        if let wait = failureDelay(for: key, now: now), wait > 0 { throw SignInThrottled(retryAfter: wait) }
        guard let account = try await store.account(named: name), let id = account.id else {
            await hasher.burnEquivalentWork()
            recordFailure(for: key, now: now)
            throw AccountError.wrongCredentials
        }
        guard await hasher.verify(password, against: account.passwordHash) else {
            recordFailure(for: key, now: now)
            throw AccountError.wrongCredentials
        }
        failures.withLock { _ = $0.removeValue(forKey: key) }
        return try await openSession(for: account, accountID: id, label: label, now: now)
    }

    /// Opens a session for an account that was just made with its password (first-run
    /// setup): no second password check, so setting up costs one hash, not two.
    public func openSession(for account: Account, label: String, now: Date = Date()) async throws -> (Principal, CredentialSecret) {
        guard let id = account.id else { throw AccountError.accountNotFound(account.name) }
        return try await openSession(for: account, accountID: id, label: label, now: now)
    }

    private func openSession(for account: Account, accountID id: Int64, label: String, now: Date) async throws -> (Principal, CredentialSecret) {
        let secret = CredentialSecret.generate()
        let credential = Credential(
            id: CredentialSecret.newID(), accountID: id, kind: .session, secretDigest: secret.digest,
            label: String(label.prefix(200)), createdAt: now, lastUsedAt: now,
            expiresAt: now.addingTimeInterval(sessionLifetime))
        try await store.insert(credential)
        return (Principal(accountID: id, name: account.name, role: account.role, proof: .session, credentialID: credential.id), secret)
    }

    /// After 5 failures in a row for one name, each further attempt waits 2^(n-5) s (at most
    /// 15 min) after the last failure; a success clears it.
    func failureDelay(for key: String, now: Date) -> TimeInterval? {
        failures.withLock { table in
            guard let entry = table[key], entry.count >= 5 else { return nil }
            let wait = min(900, pow(2, Double(entry.count - 5)))
            let remaining = entry.last.addingTimeInterval(wait).timeIntervalSince(now)
            return remaining > 0 ? remaining : nil
        }
    }

    func recordFailure(for key: String, now: Date) {
        failures.withLock { table in
            if table.count > 10_000 { table.removeAll() }
            let count = (table[key]?.count ?? 0) + 1
            table[key] = (count, now)
        }
    }

    /// Who holds this session cookie or API token, or nil when it is unknown or expired.
    public func principal(for secret: CredentialSecret, now: Date = Date()) async throws -> Principal? {
        let digest = secret.digest
        let cached = cache.withLock({ $0[digest] })
        if let cached, now.timeIntervalSince(cached.checkedAt) < cacheLifetime, (cached.credential.expiresAt ?? .distantFuture) > now {
            return cached.principal
        }
        let found: (Credential, Account)?
        do {
            found = try await store.credential(digest: digest, now: now)
        } catch {
            // The store did not answer (the database is down): a credential this server trusted
            // less than `outageGrace` ago, and nothing revoked since (revoking empties the cache),
            // still holds, so ready media keeps playing through an outage.
            if let cached, now.timeIntervalSince(cached.checkedAt) < Self.outageGrace, (cached.credential.expiresAt ?? .distantFuture) > now {
                return cached.principal
            }
            throw error
        }
        guard let (credential, account) = found, let id = account.id else {
            cache.withLock { _ = $0.removeValue(forKey: digest) }
            return nil
        }
        var credentialNow = credential
        // Record use at most once an hour; sessions slide their expiry forward.
        if now.timeIntervalSince(credential.lastUsedAt) > 3600 {
            let expires = credential.kind == .session ? now.addingTimeInterval(sessionLifetime) : nil
            try await store.touch(id: credential.id, at: now, expiresAt: expires)
            credentialNow.lastUsedAt = now
            if let expires { credentialNow.expiresAt = expires }
        }
        let principal = Principal(
            accountID: id, name: account.name, role: account.role,
            proof: credential.kind == .session ? .session : .token, credentialID: credential.id)
        cache.withLock { table in
            if table.count > 10_000 { table.removeAll() }
            table[digest] = Cached(principal: principal, credential: credentialNow, checkedAt: now)
        }
        return principal
    }

    /// Who holds this credential when that is already known and still trusted (resolved by
    /// `principal(for:)` less than `cacheLifetime` ago, not expired, not revoked since), without
    /// asking the database; nil means "not known here", not "refused": ask `principal(for:)`.
    /// For callers that cannot wait (an event loop).
    public func knownPrincipal(for secret: CredentialSecret, now: Date = Date()) -> Principal? {
        let digest = secret.digest
        guard let cached = cache.withLock({ $0[digest] }), now.timeIntervalSince(cached.checkedAt) < cacheLifetime,
            (cached.credential.expiresAt ?? .distantFuture) > now
        else { return nil }
        return cached.principal
    }

    /// Ends a session or revokes a token of `accountID`.
    public func revoke(credentialID: String, accountID: Int64) async throws {
        guard try await store.deleteCredential(id: credentialID, accountID: accountID) else {
            throw AccountError.credentialNotFound(credentialID)
        }
        invalidate()
    }

    // MARK: API tokens

    /// A new API token for an account; the secret is shown once.
    public func createToken(accountID: Int64, label: String, now: Date = Date()) async throws -> (Credential, CredentialSecret) {
        let trimmed = label.trimmingCharacters(in: .whitespacesAndNewlines)
        // Counted in Unicode scalars, as openapi.json's maxLength counts.
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= 100 else { throw AccountError.invalidLabel("use 1 to 100 characters") }
        let secret = CredentialSecret.generate(prefix: "mqt_")
        let credential = Credential(
            id: CredentialSecret.newID(), accountID: accountID, kind: .token, secretDigest: secret.digest,
            label: trimmed, createdAt: now, lastUsedAt: now, expiresAt: nil)
        try await store.insert(credential, limitingTokensTo: Self.maximumTokensPerAccount)
        return (credential, secret)
    }

    public func tokens(accountID: Int64) async throws -> [Credential] {
        try await store.credentials(accountID: accountID, kind: .token)
    }

    /// Forgets every cached credential.
    public func invalidate() {
        cache.withLock { $0.removeAll() }
        revocationCount.wrappingAdd(1, ordering: .releasing)
    }

    /// Grows with every `invalidate()` (anything that may have revoked a credential), so a
    /// caller that remembers a principal for a moment can tell it must ask again.
    public var revocations: UInt64 { revocationCount.load(ordering: .acquiring) }
}

/// Too many failed sign-ins for one account name: try again after `retryAfter` seconds.
public struct SignInThrottled: Error, Sendable, CustomStringConvertible {
    public let retryAfter: TimeInterval
    public var description: String {
        "Too many failed sign-ins for this account; try again in \(Int(retryAfter.rounded(.up))) s"
    }
}
