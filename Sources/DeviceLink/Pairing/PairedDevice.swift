import Foundation

/// A device this one has paired with: the identity to recognise it by and the application
/// services it was approved for. This is the identity that access control works with — a
/// paired device gets the paired-device role, limited to its services.
public struct PairedDevice: Sendable, Hashable, Codable, Identifiable {
    public var peer: PeerIdentity
    /// Identifiers of the application services this device was approved for.
    public var services: [String]
    public var pairedAt: Date

    public init(peer: PeerIdentity, services: [String], pairedAt: Date) {
        self.peer = peer
        self.services = services
        self.pairedAt = pairedAt
    }

    public var id: String { peer.deviceID }
    public var fingerprint: String { peer.fingerprint }
}

/// The devices this one trusts, by identity key. A value: the `TrustedDeviceStore` saves it.
///
/// Recognition is by the key, not the device id a peer claims: a device that presents a
/// known id with another key is a stranger.
public struct TrustedDevices: Sendable, Hashable, Codable {
    public private(set) var devices: [PairedDevice] = []

    public init(_ devices: [PairedDevice] = []) {
        self.devices = devices
    }

    /// The paired device holding this identity key, if it is still trusted.
    public func device(identityKey: [UInt8]) -> PairedDevice? {
        devices.first { $0.peer.identityKey == identityKey }
    }

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

/// Failed pairing attempts and the lockout they cause: after `limit` wrong or rejected
/// attempts in a row, pairing is refused until `lockDuration` has passed. A success resets
/// the count. A value, with the clock passed in.
public struct PairingLockout: Sendable, Hashable, Codable {
    public var limit: Int
    public var lockDuration: TimeInterval
    public private(set) var failures = 0
    public private(set) var lockedUntil: Date?

    public init(limit: Int = 5, lockDuration: TimeInterval = 300) {
        self.limit = limit
        self.lockDuration = lockDuration
    }

    /// When pairing opens again, or `nil` if it is open now.
    public func lockedUntil(now: Date) -> Date? {
        guard let lockedUntil, lockedUntil > now else { return nil }
        return lockedUntil
    }

    public mutating func recordFailure(now: Date) {
        if let lockedUntil, lockedUntil <= now {
            self.lockedUntil = nil
            failures = 0
        }
        failures += 1
        if failures >= limit { lockedUntil = now.addingTimeInterval(lockDuration) }
    }

    public mutating func recordSuccess() {
        failures = 0
        lockedUntil = nil
    }
}
