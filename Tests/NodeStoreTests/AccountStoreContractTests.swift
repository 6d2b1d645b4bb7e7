import Accounts
import Foundation
import MediaTesting
import PostgreSQLStores
import Testing

/// The `AccountStore` contract, against SQLite and PostgreSQL.
@Suite struct AccountStoreContractTests {
    func account(_ name: String, _ role: Role) -> Account {
        Account(name: name, role: role, passwordHash: "hash-of-\(name)", createdAt: date(1_800_000_000))
    }

    func credential(_ id: String, accountID: Int64, kind: Credential.Kind, expires: Date?) -> Credential {
        Credential(
            id: id, accountID: accountID, kind: kind, secretDigest: Data(id.utf8), label: "label \(id)", createdAt: date(1_800_000_000),
            lastUsedAt: date(1_800_000_000), expiresAt: expires)
    }

    @Test(arguments: NodeStoreKind.allCases)
    func accountsRoundTripAndNamesAreUniqueRegardlessOfCase(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let store = try await database.accounts()
        let alice = try await store.insert(account("Alice", .owner))
        let bob = try await store.insert(account("bob", .viewer))
        #expect(alice.id != nil && bob.id != nil && alice.id != bob.id)
        #expect(try await store.account(named: "ALICE") == alice)
        #expect(try await store.account(id: bob.id!) == bob)
        _ = try await store.insert(account("Carol", .viewer))
        // By name, regardless of case.
        #expect(try await store.accounts().map(\.name) == ["Alice", "bob", "Carol"])
        await #expect(throws: AccountError.nameTaken("alice")) { _ = try await store.insert(account("alice", .viewer)) }
        #expect(try await store.hasOwner())

        var renamed = bob
        renamed.passwordHash = "new hash"
        renamed.role = .owner
        try await store.update(renamed)
        // Another node (or a restart) sees the same rows.
        let other = try await database.accounts()
        #expect(try await other.account(named: "Bob") == renamed)
        #expect(try await other.accounts().count == 3)
        await #expect(throws: AccountError.accountNotFound("nobody")) { try await other.delete(named: "nobody") }
    }

    @Test(arguments: NodeStoreKind.allCases)
    func theOwnerRulesHold(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let store = try await database.accounts()
        #expect(try await !store.hasOwner())
        var owner = try await store.insert(account("owner", .owner), onlyIfNoOwner: true)
        await #expect(throws: AccountError.ownerExists) { _ = try await store.insert(account("second", .owner), onlyIfNoOwner: true) }
        owner.role = .viewer
        await #expect(throws: AccountError.lastOwner) { try await store.update(owner) }
        await #expect(throws: AccountError.lastOwner) { try await store.delete(named: "OWNER") }
        _ = try await store.insert(account("co-owner", .owner))
        try await store.update(owner)
        #expect(try await store.account(named: "owner")?.role == .viewer)
        try await store.delete(named: "owner")
        #expect(try await store.account(named: "owner") == nil)
        await #expect(throws: AccountError.lastOwner) { try await store.delete(named: "co-owner") }
    }

    @Test(arguments: NodeStoreKind.allCases)
    func credentialsResolveExpireAndGo(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let store = try await database.accounts()
        let alice = try await store.insert(account("alice", .viewer))
        let id = try #require(alice.id)
        // Whole seconds: SQLite keeps dates to the millisecond.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let session = credential("session-1", accountID: id, kind: .session, expires: now.addingTimeInterval(3600))
        try await store.insert(session)
        try await store.insert(credential("token-1", accountID: id, kind: .token, expires: nil), limitingTokensTo: 2)
        try await store.insert(credential("token-2", accountID: id, kind: .token, expires: nil), limitingTokensTo: 2)
        await #expect(throws: AccountError.tooManyCredentials(2)) {
            try await store.insert(self.credential("token-3", accountID: id, kind: .token, expires: nil), limitingTokensTo: 2)
        }

        let found = try #require(try await store.credential(digest: Data("session-1".utf8), now: now))
        #expect(found.0 == session && found.1 == alice)
        #expect(try await store.credential(digest: Data("session-1".utf8), now: now.addingTimeInterval(7200)) == nil)
        #expect(try await store.credential(digest: Data("nothing".utf8), now: now) == nil)

        // Used: its expiry slides (seen by another node too).
        let later = date(1_900_000_000)
        try await store.touch(id: "session-1", at: date(1_800_000_100), expiresAt: later)
        let touched = try #require(try await database.accounts().credential(digest: Data("session-1".utf8), now: now))
        #expect(touched.0.lastUsedAt == date(1_800_000_100) && touched.0.expiresAt == later)
        #expect(try await store.credentials(accountID: id, kind: .token).map(\.id) == ["token-1", "token-2"])

        // A new session forgets expired ones.
        try await store.insert(credential("stale", accountID: id, kind: .session, expires: now.addingTimeInterval(-60)))
        try await store.insert(credential("session-2", accountID: id, kind: .session, expires: now.addingTimeInterval(3600)))
        #expect(try await store.credentials(accountID: id, kind: .session).map(\.id).sorted() == ["session-1", "session-2"])

        #expect(try await store.deleteCredential(id: "token-1", accountID: id))
        #expect(try await !store.deleteCredential(id: "token-1", accountID: id))
        try await store.deleteSessions(accountID: id)
        #expect(try await store.credentials(accountID: id, kind: .session).isEmpty)
        #expect(try await store.credentials(accountID: id, kind: .token).map(\.id) == ["token-2"])

        // Deleting the account takes its credentials with it.
        try await store.delete(named: "alice")
        #expect(try await store.credential(digest: Data("token-2".utf8), now: now) == nil)
    }

    @Test(arguments: NodeStoreKind.allCases)
    func anAccountMadeThroughOneNodeSignsInThroughAnother(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let nodeA = AccountService(store: try await database.accounts(), hasher: .fast)
        let nodeB = AccountService(store: try await database.accounts(), hasher: .fast)
        _ = try await nodeA.createOwner(name: "ada", password: "correct horse battery", setupCode: nil, trustedCaller: true)
        #expect(try await !nodeB.needsOwner())
        let (principal, secret) = try await nodeB.signIn(name: "Ada", password: "correct horse battery", label: "test")
        #expect(principal.name == "ada")
        #expect(try await nodeA.principal(for: secret)?.name == "ada")
        await #expect(throws: AccountError.wrongCredentials) { _ = try await nodeB.signIn(name: "ada", password: "wrong password here", label: "test") }
    }
}

/// Two server nodes on one PostgreSQL: each caches resolved credentials, and a sign-out
/// through one is honoured by the other at once, not when its cache runs out.
@Suite struct AccountCacheAcrossNodesTests {
    @Test func aSignOutThroughOneNodeHoldsOnTheOtherAtOnce() async throws {
        let database = try await NodeStoreKind.postgresql.makeDatabase()
        defer { database.cleanUp() }
        let storeA = try #require(try await database.accounts() as? PostgreSQLAccountStore)
        let nodeA = AccountService(store: storeA, hasher: .fast, cacheLifetime: 600)
        let storeB = try await database.accounts()
        let nodeB = AccountService(store: storeB, hasher: .fast, cacheLifetime: 600)
        let notices = storeA.changesFromOtherNodes()
        let heard = NoticeCount()
        let listener = Task {
            for await _ in notices {
                nodeA.invalidate()
                await heard.add()
            }
        }
        defer { listener.cancel() }
        // Node A's LISTEN is in place once a notice from node B gets through (signing nobody out
        // announces one); a revoke announced before that would be missed.
        try await eventually("node A to hear node B's notices", pollingEvery: .milliseconds(100)) {
            try await storeB.deleteSessions(accountID: -1)
            return await heard.count > 0
        }

        _ = try await nodeB.createOwner(name: "ada", password: "correct horse battery", setupCode: nil, trustedCaller: true)
        let (principal, secret) = try await nodeB.signIn(name: "ada", password: "correct horse battery", label: "test")
        #expect(try await nodeA.principal(for: secret)?.name == "ada")  // now cached on node A
        try await nodeB.revoke(credentialID: try #require(principal.credentialID), accountID: try #require(principal.accountID))
        try await eventually("node A to refuse a session signed out through node B", pollingEvery: .milliseconds(50)) {
            try await nodeA.principal(for: secret) == nil
        }
    }
}

/// How many change notices a node has heard.
actor NoticeCount {
    private(set) var count = 0
    func add() { count += 1 }
}
