public import Foundation

/// A device this one has paired with: the identity to recognise it by and the application
/// services it was approved for. This is the identity that access control works with — a
/// paired device gets the paired-device role, limited to its services.
public struct PairedDevice: Sendable, Hashable, Codable, Identifiable {
    /// The device as it introduced itself when it paired (its identity key included).
    public var peer: PeerIdentity
    /// Identifiers of the application services this device was approved for.
    public var services: [String]
    /// When it was last approved.
    public var pairedAt: Date

    /// A device paired at `pairedAt` for `services`.
    public init(peer: PeerIdentity, services: [String], pairedAt: Date) {
        self.peer = peer
        self.services = services
        self.pairedAt = pairedAt
    }

    /// The device ID it claimed (recognition itself is by identity key).
    public var id: String { peer.deviceID }
    /// Its identity key's fingerprint, for showing to a person.
    public var fingerprint: String { peer.fingerprint }
}

/// The devices this one trusts, by identity key. A value: the `TrustedDeviceStore` saves it.
///
/// Recognition is by the key, not the device id a peer claims: a device that presents a
/// known id with another key is a stranger.
public struct TrustedDevices: Sendable, Hashable, Codable {
    /// The trusted devices, in the order they were first paired.
    public private(set) var devices: [PairedDevice] = []

    /// A list holding `devices`.
    public init(_ devices: [PairedDevice] = []) {
        self.devices = devices
    }

    /// The paired device holding this identity key, if it is still trusted.
    public func device(identityKey: [UInt8]) -> PairedDevice? {
        devices.first { $0.peer.identityKey == identityKey }
    }

    /// The paired device with this device ID, if it is still trusted.
    public func device(id: String) -> PairedDevice? {
        devices.first { $0.id == id }
    }

    /// Trusts a device (again), adding `services` to those it already had.
    public mutating func trust(_ peer: PeerIdentity, services: [String], at date: Date) {
        if let index = devices.firstIndex(where: { $0.peer.identityKey == peer.identityKey || $0.id == peer.deviceID }) {
            let merged = devices[index].peer.identityKey == peer.identityKey ? devices[index].services : []
            devices[index] = PairedDevice(peer: peer, services: Array(Set(merged + services)).sorted(), pairedAt: date)
        } else {
            devices.append(PairedDevice(peer: peer, services: services.sorted(), pairedAt: date))
        }
    }

    /// Forgets a device; it must pair (with approval) again before it may send anything.
    @discardableResult
    public mutating func revoke(id: String) -> PairedDevice? {
        guard let index = devices.firstIndex(where: { $0.id == id }) else { return nil }
        return devices.remove(at: index)
    }
}

/// Failed pairing attempts and the lockouts they cause, per peer (by the peer's identity
/// fingerprint): after `limit` proven failures in a row from one peer, that peer may not pair
/// until `lockDuration` has passed; other peers are not affected. A success resets the peer's
/// count. At most `mostPeers` peers are remembered (the oldest failures go first). A value,
/// with the clock passed in.
///
/// Decoding a record written before locks were per peer keeps `limit` and `lockDuration` and
/// drops the old global count and lock.
public struct PairingLockout: Sendable, Hashable, Codable {
    /// One peer's failures in a row, and its lock.
    public struct PeerRecord: Sendable, Hashable, Codable {
        /// Proven failures in a row.
        public var failures: Int
        /// When the peer may pair again; nil when it is not locked.
        public var lockedUntil: Date?
        /// When the latest failure was.
        public var lastFailure: Date
    }

    /// How many peers' records are kept at most.
    public static let mostPeers = 256
    /// Failures in a row that lock a peer out.
    public var limit: Int
    /// How long a lock lasts, in seconds.
    public var lockDuration: TimeInterval
    public private(set) var peers: [String: PeerRecord] = [:]

    /// A lockout with no failures: 5 in a row lock a peer out for 5 minutes unless told otherwise.
    public init(limit: Int = 5, lockDuration: TimeInterval = 300) {
        self.limit = limit
        self.lockDuration = lockDuration
    }

    enum CodingKeys: String, CodingKey { case limit, lockDuration, peers }

    /// Decodes a record of any version (see above).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        limit = try container.decode(Int.self, forKey: .limit)
        lockDuration = try container.decode(TimeInterval.self, forKey: .lockDuration)
        peers = try container.decodeIfPresent([String: PeerRecord].self, forKey: .peers) ?? [:]
    }

    /// When pairing opens again for `peer`, or `nil` if it is open now.
    public func lockedUntil(peer: String, now: Date) -> Date? {
        guard let lockedUntil = peers[peer]?.lockedUntil, lockedUntil > now else { return nil }
        return lockedUntil
    }

    /// Every peer locked out now, with when its lock ends.
    public func lockedPeers(now: Date) -> [String: Date] {
        peers.compactMapValues { record in record.lockedUntil.flatMap { $0 > now ? $0 : nil } }
    }

    /// Proven failures in a row from `peer`.
    public func failures(peer: String) -> Int { peers[peer]?.failures ?? 0 }

    /// Counts a proven failure of `peer` (a lock that has run out starts the count afresh) and
    /// locks it out for `lockDuration` when it reaches `limit`.
    public mutating func recordFailure(peer: String, now: Date) {
        var record = peers[peer] ?? PeerRecord(failures: 0, lockedUntil: nil, lastFailure: now)
        if let lockedUntil = record.lockedUntil, lockedUntil <= now {
            record.lockedUntil = nil
            record.failures = 0
        }
        record.failures += 1
        record.lastFailure = now
        if record.failures >= limit { record.lockedUntil = now.addingTimeInterval(lockDuration) }
        peers[peer] = record
        while peers.count > Self.mostPeers, let oldest = peers.min(by: { $0.value.lastFailure < $1.value.lastFailure })?.key {
            peers[oldest] = nil
        }
    }

    /// Forgets `peer`'s failures: it paired.
    public mutating func recordSuccess(peer: String) {
        peers[peer] = nil
    }
}
