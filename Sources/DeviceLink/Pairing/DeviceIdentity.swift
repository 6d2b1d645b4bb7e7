public import Crypto
public import Foundation

/// This device's long-term identity: an Ed25519 signing key, a stable device id, a friendly
/// name and its platform. Paired peers remember the public key, so later connections are
/// recognised without asking anyone.
public struct DeviceIdentity: Sendable {
    public nonisolated(unsafe) let signingKey: Curve25519.Signing.PrivateKey  // immutable; not marked Sendable by swift-crypto
    public let deviceID: String
    public var name: String
    public var platform: String

    public init(
        signingKey: Curve25519.Signing.PrivateKey = .init(), deviceID: String = UUID().uuidString.lowercased(),
        name: String, platform: String
    ) {
        self.signingKey = signingKey
        self.deviceID = deviceID
        self.name = name
        self.platform = platform
    }

    public var publicKey: [UInt8] { Array(signingKey.publicKey.rawRepresentation) }
    public var fingerprint: String { IdentityFingerprint.of(publicKey) }

    /// The identity as a peer records it.
    public var asPeer: PeerIdentity {
        PeerIdentity(deviceID: deviceID, name: name, platform: platform, identityKey: publicKey)
    }
}

/// A short, stable, printable name for an identity key: the first 16 bytes of its SHA-256 in hex.
public enum IdentityFingerprint {
    public static func of(_ key: [UInt8]) -> String {
        SHA256.hash(data: key).prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}

/// Who is on the other end of a link, as it introduced itself in the handshake.
public struct PeerIdentity: Sendable, Hashable, Codable {
    public var deviceID: String
    public var name: String
    public var platform: String
    /// The peer's Ed25519 public key (raw, 32 bytes).
    public var identityKey: [UInt8]

    public init(deviceID: String, name: String, platform: String, identityKey: [UInt8]) {
        self.deviceID = deviceID
        self.name = name
        self.platform = platform
        self.identityKey = identityKey
    }

    public var fingerprint: String { IdentityFingerprint.of(identityKey) }
}

/// The identity file format: the private key and the device id, so a device stays the same
/// device across launches.
public struct StoredIdentity: Codable, Sendable {
    public var deviceID: String
    public var signingKey: Data

    public init(_ identity: DeviceIdentity) {
        deviceID = identity.deviceID
        signingKey = identity.signingKey.rawRepresentation
    }

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
