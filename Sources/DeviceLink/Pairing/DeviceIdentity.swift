public import Crypto
public import Foundation

/// This device's long-term identity: an Ed25519 signing key, a stable device id, a friendly
/// name and its platform. Paired peers remember the public key, so later connections are
/// recognised without asking anyone.
public struct DeviceIdentity: Sendable {
    /// The Ed25519 key that signs this device's part of every handshake.
    public nonisolated(unsafe) let signingKey: Curve25519.Signing.PrivateKey  // immutable; not marked Sendable by swift-crypto
    /// A stable ID for this device (a lower-case UUID unless given).
    public let deviceID: String
    /// The name people see (`Living room`).
    public var name: String
    /// What kind of device it is (`linux`, `web`), shown beside the name.
    public var platform: String

    /// An identity; by default a new key and a new device ID.
    public init(
        signingKey: Curve25519.Signing.PrivateKey = .init(), deviceID: String = UUID().uuidString.lowercased(),
        name: String, platform: String
    ) {
        self.signingKey = signingKey
        self.deviceID = deviceID
        self.name = name
        self.platform = platform
    }

    /// The raw 32-byte public key.
    public var publicKey: [UInt8] { Array(signingKey.publicKey.rawRepresentation) }
    /// The public key's fingerprint, for showing to a person.
    public var fingerprint: String { IdentityFingerprint.of(publicKey) }

    /// The identity as a peer records it.
    public var asPeer: PeerIdentity {
        PeerIdentity(deviceID: deviceID, name: name, platform: platform, identityKey: publicKey)
    }
}

/// A short, stable, printable name for an identity key: the first 16 bytes of its SHA-256 in hex.
public enum IdentityFingerprint {
    /// The fingerprint of `key`: 32 lower-case hexadecimal digits.
    public static func of(_ key: [UInt8]) -> String {
        SHA256.hash(data: key).prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}

/// Who is on the other end of a link, as it introduced itself in the handshake.
public struct PeerIdentity: Sendable, Hashable, Codable {
    /// The device ID it claims.
    public var deviceID: String
    /// The name it gave.
    public var name: String
    /// The platform it gave.
    public var platform: String
    /// The peer's Ed25519 public key (raw, 32 bytes).
    public var identityKey: [UInt8]

    /// A peer as it introduced itself.
    public init(deviceID: String, name: String, platform: String, identityKey: [UInt8]) {
        self.deviceID = deviceID
        self.name = name
        self.platform = platform
        self.identityKey = identityKey
    }

    /// Its identity key's fingerprint, for showing to a person.
    public var fingerprint: String { IdentityFingerprint.of(identityKey) }
}

/// The identity file format: the private key and the device id, so a device stays the same
/// device across launches.
public struct StoredIdentity: Codable, Sendable {
    /// The device ID.
    public var deviceID: String
    /// The Ed25519 private key, raw (32 bytes).
    public var signingKey: Data

    /// The stored form of `identity` (its name and platform are not stored).
    public init(_ identity: DeviceIdentity) {
        deviceID = identity.deviceID
        signingKey = identity.signingKey.rawRepresentation
    }

    /// The identity with `name` and `platform`; throws when the stored key is not a valid Ed25519 key.
    public func identity(name: String, platform: String) throws -> DeviceIdentity {
        DeviceIdentity(signingKey: try .init(rawRepresentation: signingKey), deviceID: deviceID, name: name, platform: platform)
    }

    /// Reads the identity at `url`, creating (and saving, readable by the owner only) a new one
    /// when there is none.
    public static func loadOrCreate(at url: URL, name: String, platform: String) throws -> DeviceIdentity {
        if let data = try? Data(contentsOf: url) {
            return try JSONDecoder().decode(StoredIdentity.self, from: data).identity(name: name, platform: platform)
        }
        let identity = DeviceIdentity(name: name, platform: platform)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(StoredIdentity(identity)).write(to: url, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return identity
    }
}
