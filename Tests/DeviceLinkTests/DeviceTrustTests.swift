import Foundation
import Testing

@testable import DeviceLink

@Suite struct DeviceTrustTests {
    @Test func trustedDevicesAndTheLockoutSurviveARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devicetrust-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("trusted-devices.json")
        let phone = phoneIdentity()
        do {
            let trust = try DeviceTrust(file: file)
            await trust.trust(phone.asPeer, services: ["remote"])
            for _ in 0..<5 { await trust.recordFailedPairing(peer: "00112233445566778899aabbccddeeff") }
        }
        let reloaded = try DeviceTrust(file: file)
        #expect(await reloaded.device(identityKey: phone.publicKey)?.services == ["remote"])
        #expect(await reloaded.pairingLockedFor(peer: "00112233445566778899aabbccddeeff") != nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func theIdentityStaysTheSameAcrossLaunches() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let first = try StoredIdentity.loadOrCreate(at: file, name: "TV", platform: "linux")
        let second = try StoredIdentity.loadOrCreate(at: file, name: "TV", platform: "linux")
        #expect(first.publicKey == second.publicKey && first.deviceID == second.deviceID)
    }
}
