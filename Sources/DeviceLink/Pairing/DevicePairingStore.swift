public import Foundation

/// What a device keeps about pairing: the devices it trusts and the lockout after failed attempts.
public struct DeviceTrustRecord: Sendable, Hashable, Codable {
    /// The paired devices.
    public var trusted: TrustedDevices
    /// Failed pairing attempts and locks, per peer.
    public var lockout: PairingLockout

    /// A record with no device and no failure, by default.
    public init(trusted: TrustedDevices = TrustedDevices(), lockout: PairingLockout = PairingLockout()) {
        self.trusted = trusted
        self.lockout = lockout
    }
}

/// Where a server keeps its own device identity and its pairings, so a restart — or another
/// server node sharing the store — presents the same identity and trusts the same devices.
///
/// Two implementations share this contract and one test suite: `DevicePairingFiles` (two JSON
/// files in the data directory, the single-machine default) and the PostgreSQL store in
/// `PostgreSQLStores`, shared by every node behind a load balancer, so a phone paired through
/// node A is recognised by node B. `DeviceTrust` holds the rules; this is only the storage.
public protocol DevicePairingStore: Sendable {
    /// Whether other processes change the store too (then `DeviceTrust` reads it before answering).
    var isShared: Bool { get }
    /// The stored identity, or `make()`'s, stored first when there was none (atomically: two
    /// nodes starting together end up with the same one).
    func identity(orCreate make: @Sendable () -> StoredIdentity) async throws -> StoredIdentity
    /// The stored trust, or `nil` when nothing was stored yet.
    func trust() async throws -> DeviceTrustRecord?
    /// Applies `change` to the stored trust (`initial` when none is stored) and stores the
    /// result, atomically with respect to every other writer; returns what was stored.
    func modifyTrust(initial: DeviceTrustRecord, _ change: @Sendable (inout DeviceTrustRecord) -> Void) async throws -> DeviceTrustRecord
}

/// The single-machine pairing store: `identity.json` and `trusted-devices.json` in a folder,
/// readable by the owner only, each written atomically. One process writes them (its
/// `DeviceTrust` actor serialises changes).
public struct DevicePairingFiles: DevicePairingStore {
    /// `identity.json`: this device's key and ID.
    public let identityFile: URL
    /// `trusted-devices.json`: the paired devices and the lockout.
    public let trustFile: URL

    /// The two files in `directory`.
    public init(directory: URL) {
        identityFile = directory.appendingPathComponent("identity.json")
        trustFile = directory.appendingPathComponent("trusted-devices.json")
    }

    /// The trust at `trustFile`, with `identity.json` beside it.
    public init(trustFile: URL) {
        identityFile = trustFile.deletingLastPathComponent().appendingPathComponent("identity.json")
        self.trustFile = trustFile
    }

    /// False: one process owns the files.
    public var isShared: Bool { false }

    /// Reads `identity.json`, or writes `make()`'s there when the file cannot be read.
    public func identity(orCreate make: @Sendable () -> StoredIdentity) async throws -> StoredIdentity {
        if let data = try? Data(contentsOf: identityFile) { return try JSONDecoder().decode(StoredIdentity.self, from: data) }
        let made = make()
        try Self.write(JSONEncoder().encode(made), to: identityFile)
        return made
    }

    /// Reads `trusted-devices.json`; nil when there is none, an error when it does not decode.
    public func trust() async throws -> DeviceTrustRecord? {
        guard let data = try? Data(contentsOf: trustFile) else { return nil }
        return try Self.decoder.decode(DeviceTrustRecord.self, from: data)
    }

    /// Reads, changes and rewrites the file (atomic for readers, not for other writers: there are none).
    public func modifyTrust(initial: DeviceTrustRecord, _ change: @Sendable (inout DeviceTrustRecord) -> Void) async throws -> DeviceTrustRecord {
        var record = (try? await trust()) ?? initial
        change(&record)
        try Self.write(Self.encoder.encode(record), to: trustFile)
        return record
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static func write(_ data: Data, to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}

extension DevicePairingStore {
    /// The stored identity with this run's name and platform, made and stored on first use.
    public func deviceIdentity(name: String, platform: String) async throws -> DeviceIdentity {
        try await identity(orCreate: { StoredIdentity(DeviceIdentity(name: name, platform: platform)) }).identity(name: name, platform: platform)
    }
}
