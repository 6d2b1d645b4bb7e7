import DeviceLink
import Foundation
import Testing

/// The `DevicePairingStore` contract, against the files and PostgreSQL.
@Suite struct DevicePairingStoreContractTests {
    func phone(_ name: String) -> PeerIdentity {
        DeviceIdentity(name: name, platform: "ios").asPeer
    }

    @Test(arguments: NodeStoreKind.allCases)
    func theIdentityIsMadeOnceAndKept(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let first = try await database.pairings().deviceIdentity(name: "TV", platform: "linux")
        let again = try await database.pairings().deviceIdentity(name: "Living room", platform: "linux")
        #expect(again.publicKey == first.publicKey && again.deviceID == first.deviceID)
        #expect(again.name == "Living room")
    }

    @Test(arguments: NodeStoreKind.allCases)
    func trustAndTheLockoutSurviveARestart(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        #expect(try await database.pairings().trust() == nil)
        let phone = phone("Phone")
        do {
            let trust = try await DeviceTrust(store: try await database.pairings())
            await trust.trust(phone, services: ["remote", "game"])
            for _ in 0..<5 { await trust.recordFailedPairing(peer: "00112233445566778899aabbccddeeff") }
        }
        let restarted = try await DeviceTrust(store: try await database.pairings())
        #expect(await restarted.device(identityKey: phone.identityKey)?.services == ["game", "remote"])
        #expect(await restarted.pairingLockedFor(peer: "00112233445566778899aabbccddeeff") != nil)
        #expect(await restarted.revoke(id: phone.deviceID)?.peer == phone)
        #expect(try await database.pairings().trust()?.trusted.devices.isEmpty == true)
    }

    @Test(arguments: NodeStoreKind.allCases)
    func modifyStartsFromTheStoredRecordOrTheInitialOne(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let store = try await database.pairings()
        let tablet = phone("Tablet")
        let stored = try await store.modifyTrust(initial: DeviceTrustRecord(lockout: PairingLockout(limit: 2, lockDuration: 60))) { record in
            record.trusted.trust(tablet, services: ["remote"], at: date(1_800_000_000))
        }
        #expect(stored.lockout.limit == 2 && stored.trusted.devices.map(\.peer) == [tablet])
        // The stored record wins over a stale initial one.
        let next = try await database.pairings().modifyTrust(initial: DeviceTrustRecord()) { record in
            record.lockout.recordFailure(peer: "00112233445566778899aabbccddeeff", now: date(1_800_000_001))
        }
        #expect(next.lockout.limit == 2 && next.lockout.failures(peer: "00112233445566778899aabbccddeeff") == 1 && next.trusted.devices.map(\.peer) == [tablet])
        #expect(try await store.trust() == next)
    }

    /// Two server nodes on one PostgreSQL: a pairing through one is trusted by the other at
    /// once, a revocation through the other holds on the first, and changes made at the same
    /// time on both are all kept.
    @Test func aPairingThroughOneNodeIsTrustedByAnother() async throws {
        let database = try await NodeStoreKind.postgresql.makeDatabase()
        defer { database.cleanUp() }
        let identityA = try await database.pairings().deviceIdentity(name: "TV", platform: "linux")
        let identityB = try await database.pairings().deviceIdentity(name: "TV", platform: "linux")
        #expect(identityA.publicKey == identityB.publicKey)
        let nodeA = try await DeviceTrust(store: try await database.pairings())
        let nodeB = try await DeviceTrust(store: try await database.pairings())
        let phone = phone("Phone")
        await nodeA.trust(phone, services: ["remote"])
        #expect(await nodeB.device(identityKey: phone.identityKey)?.id == phone.deviceID)
        await nodeB.revoke(id: phone.deviceID)
        #expect(await nodeA.device(identityKey: phone.identityKey) == nil)

        let phones = (0..<12).map { self.phone("Phone \($0)") }
        await withTaskGroup(of: Void.self) { group in
            for (index, peer) in phones.enumerated() {
                group.addTask { await (index % 2 == 0 ? nodeA : nodeB).trust(peer, services: ["remote"]) }
            }
        }
        #expect(Set(await nodeA.devices.map(\.id)) == Set(phones.map(\.deviceID)))
    }
}
