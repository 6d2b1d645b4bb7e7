import Foundation
import MediaTesting
import Testing

@testable import Accounts

@Suite("Accounts")
struct AccountServiceTests {
    let directory: URL
    let service: AccountService

    init() throws {
        directory = ScratchFolder.reserve("accounts")
        service = AccountService(store: try SQLiteAccountStore(url: directory.appendingPathComponent("accounts.sqlite")), hasher: .fast)
    }

    @Test("Passwords are stored as scrypt hashes that verify only the right password")
    func passwordHashing() async throws {
        let hash = try await PasswordHasher.fast.hash("correct horse")
        #expect(hash.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(!hash.contains("correct horse"))
        #expect(await PasswordHasher.fast.verify("correct horse", against: hash))
        #expect(await !PasswordHasher.fast.verify("correct horsf", against: hash))
        // Two hashes of one password differ (fresh salt).
        #expect(try await PasswordHasher.fast.hash("correct horse") != hash)
        // A hash naming an absurd cost is refused rather than run.
        #expect(await !PasswordHasher.fast.verify("x", against: "$scrypt$ln=40,r=8,p=1$AAAA$" + Data(count: 32).base64EncodedString()))
        #expect(await !PasswordHasher.fast.verify("x", against: "garbage"))
    }

    @Test("The first owner needs the setup code, once; a second owner setup is refused")
    func firstOwner() async throws {
        #expect(try await service.needsOwner())
        let code = try #require(try await service.setupCode())
        #expect(code.value.count == 14)
        await #expect(throws: AccountError.wrongSetupCode) {
            try await service.createOwner(name: "ann", password: "long enough pw", setupCode: "AAAA-AAAA-AAAA", trustedCaller: false)
        }
        await #expect(throws: AccountError.wrongSetupCode) {
            try await service.createOwner(name: "ann", password: "long enough pw", setupCode: nil, trustedCaller: false)
        }
        let lowercased = code.value.lowercased().replacingOccurrences(of: "-", with: " ")
        let owner = try await service.createOwner(name: "ann", password: "long enough pw", setupCode: lowercased, trustedCaller: false)
        #expect(owner.role == .owner)
        #expect(try await service.setupCode() == nil)
        await #expect(throws: AccountError.ownerExists) {
            try await service.createOwner(name: "bob", password: "long enough pw", setupCode: code.value, trustedCaller: false)
        }
        await #expect(throws: AccountError.ownerExists) {
            try await service.createOwner(name: "bob", password: "long enough pw", setupCode: nil, trustedCaller: true)
        }
    }

    @Test("The owner just created is signed in without a second password check")
    func ownerSignedInAtSetup() async throws {
        let owner = try await service.createOwner(name: "ann", password: "long enough pw", setupCode: nil, trustedCaller: true)
        let (principal, secret) = try await service.openSession(for: owner, label: "setup")
        #expect(principal.name == "ann" && principal.role == .owner && principal.proof == .session)
        let found = try #require(try await service.principal(for: secret))
        #expect(found.accountID == owner.id && found.credentialID == principal.credentialID)
        // An account that was never stored has no session to open.
        let unsaved = Account(id: nil, name: "ghost", role: .viewer, passwordHash: "", createdAt: Date())
        await #expect(throws: AccountError.accountNotFound("ghost")) { try await service.openSession(for: unsaved, label: "x") }
    }

    @Test("Names and passwords are validated with specific reasons")
    func validation() async throws {
        await #expect(throws: AccountError.self) { try await service.createAccount(name: "", password: "long enough pw", role: .viewer) }
        await #expect(throws: AccountError.self) { try await service.createAccount(name: "a b", password: "long enough pw", role: .viewer) }
        await #expect(throws: AccountError.weakPassword("use at least 8 characters")) {
            try await service.createAccount(name: "ann", password: "short", role: .viewer)
        }
        _ = try await service.createAccount(name: "ann", password: "long enough pw", role: .viewer)
        await #expect(throws: AccountError.nameTaken("ANN")) { try await service.createAccount(name: "ANN", password: "long enough pw", role: .viewer) }
    }

    @Test("Signing in gives a session that resolves to the account; signing out revokes it at once")
    func sessions() async throws {
        _ = try await service.createAccount(name: "ann", password: "long enough pw", role: .viewer)
        await #expect(throws: AccountError.wrongCredentials) { try await service.signIn(name: "ann", password: "wrong password", label: "t") }
        await #expect(throws: AccountError.wrongCredentials) { try await service.signIn(name: "nobody", password: "long enough pw", label: "t") }
        let (principal, secret) = try await service.signIn(name: "Ann", password: "long enough pw", label: "test browser")
        #expect(principal.role == .viewer && principal.name == "ann" && principal.proof == .session)
        #expect(try await service.principal(for: secret) == principal)
        #expect(try await service.principal(for: CredentialSecret(value: secret.value + "x")) == nil)
        try await service.revoke(credentialID: try #require(principal.credentialID), accountID: try #require(principal.accountID))
        #expect(try await service.principal(for: secret) == nil)
    }

    @Test("A session expires after its lifetime without use")
    func expiry() async throws {
        let short = AccountService(store: service.store, hasher: .fast, sessionLifetime: 60, cacheLifetime: 0)
        _ = try await short.createAccount(name: "ann", password: "long enough pw", role: .viewer)
        let start = Date()
        let (_, secret) = try await short.signIn(name: "ann", password: "long enough pw", label: "t", now: start)
        #expect(try await short.principal(for: secret, now: start.addingTimeInterval(30)) != nil)
        #expect(try await short.principal(for: secret, now: start.addingTimeInterval(61)) == nil)
    }

    @Test("Repeated failures for one name slow further attempts, even with the right password")
    func failureBackoff() async throws {
        _ = try await service.createAccount(name: "ann", password: "long enough pw", role: .viewer)
        let now = Date()
        for _ in 0..<6 {
            _ = try? await service.signIn(name: "ann", password: "wrong password", label: "t", now: now)
        }
        await #expect(throws: SignInThrottled.self) { try await service.signIn(name: "ann", password: "long enough pw", label: "t", now: now) }
        // Later, the right password works and clears the count.
        _ = try await service.signIn(name: "ann", password: "long enough pw", label: "t", now: now.addingTimeInterval(5))
        #expect(service.failureDelay(for: "ann", now: now.addingTimeInterval(5)) == nil)
    }

    @Test("API tokens are shown once, stored as digests, listed and revocable")
    func tokens() async throws {
        let account = try await service.createAccount(name: "ann", password: "long enough pw", role: .owner)
        let id = try #require(account.id)
        let (credential, secret) = try await service.createToken(accountID: id, label: "backup script")
        #expect(secret.value.hasPrefix("mqt_"))
        #expect(credential.secretDigest != Data(secret.value.utf8))
        let principal = try #require(try await service.principal(for: secret))
        #expect(principal.proof == .token && principal.role == .owner)
        #expect(try await service.tokens(accountID: id).map(\.label) == ["backup script"])
        try await service.revoke(credentialID: credential.id, accountID: id)
        #expect(try await service.principal(for: secret) == nil)
        await #expect(throws: AccountError.self) { try await service.createToken(accountID: id, label: "  ") }
    }

    @Test("Removing or demoting the last owner is refused; a demoted account loses its role at once")
    func lastOwner() async throws {
        _ = try await service.createOwner(name: "ann", password: "long enough pw", setupCode: nil, trustedCaller: true)
        await #expect(throws: AccountError.lastOwner) { try await service.deleteAccount(named: "ann") }
        await #expect(throws: AccountError.lastOwner) { try await service.setRole(.viewer, forAccountNamed: "ann") }
        _ = try await service.createAccount(name: "bob", password: "long enough pw", role: .owner)
        let (_, secret) = try await service.signIn(name: "bob", password: "long enough pw", label: "t")
        #expect(try await service.principal(for: secret)?.role == .owner)
        try await service.setRole(.viewer, forAccountNamed: "bob")
        #expect(try await service.principal(for: secret)?.role == .viewer)
        try await service.deleteAccount(named: "bob")
        #expect(try await service.principal(for: secret) == nil)
    }

    @Test("A new password signs the account out everywhere")
    func passwordChange() async throws {
        _ = try await service.createAccount(name: "ann", password: "long enough pw", role: .viewer)
        let (_, secret) = try await service.signIn(name: "ann", password: "long enough pw", label: "t")
        try await service.setPassword("another long pw", forAccountNamed: "ann")
        #expect(try await service.principal(for: secret) == nil)
        await #expect(throws: AccountError.wrongCredentials) { try await service.signIn(name: "ann", password: "long enough pw", label: "t") }
        _ = try await service.signIn(name: "ann", password: "another long pw", label: "t")
    }

    @Test("Accounts and tokens survive reopening the database")
    func persistence() async throws {
        let account = try await service.createAccount(name: "ann", password: "long enough pw", role: .owner)
        let (_, secret) = try await service.createToken(accountID: try #require(account.id), label: "cli")
        let reopened = AccountService(store: try SQLiteAccountStore(url: directory.appendingPathComponent("accounts.sqlite")), hasher: .fast)
        #expect(try await reopened.principal(for: secret)?.name == "ann")
        #expect(try await !reopened.needsOwner())
    }
}
