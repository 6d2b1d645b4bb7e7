public import Foundation
import Logging

/// The trusted devices and the pairing lockout of one device, kept in a `DevicePairingStore`
/// after every change so a restart forgets nothing — and, when the store is shared between
/// server nodes, read back before each answer so a pairing made on one node holds on every other.
public actor DeviceTrust {
    /// Where the trust store reports a store it could not read or write.
    static let logger = Logger(label: "devicelink.trust")

    private var saved: DeviceTrustRecord
    private let store: (any DevicePairingStore)?
    private let now: @Sendable () -> Date

    /// Trust kept in memory only (tests), or in `file` (JSON).
    public init(file: URL? = nil, lockout: PairingLockout = PairingLockout(), now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.store = file.map { DevicePairingFiles(trustFile: $0) }
        self.now = now
        if let file, let data = try? Data(contentsOf: file) {
            saved = try DevicePairingFiles.decoder.decode(DeviceTrustRecord.self, from: data)
        } else {
            saved = DeviceTrustRecord(trusted: TrustedDevices(), lockout: lockout)
        }
    }

    /// Trust kept in `store`, read now.
    public init(store: any DevicePairingStore, lockout: PairingLockout = PairingLockout(), now: @escaping @Sendable () -> Date = { Date() }) async throws {
        self.store = store
        self.now = now
        saved = try await store.trust() ?? DeviceTrustRecord(trusted: TrustedDevices(), lockout: lockout)
    }

    /// The paired devices (read from a shared store first).
    public var trusted: TrustedDevices {
        get async {
            await refresh()
            return saved.trusted
        }
    }

    /// The paired devices as a list (read from a shared store first).
    public var devices: [PairedDevice] {
        get async {
            await refresh()
            return saved.trusted.devices
        }
    }

    /// Seconds until pairing opens again for `peer` (an identity fingerprint), or `nil` if it
    /// is open for it.
    public func pairingLockedFor(peer: String) async -> TimeInterval? {
        await refresh()
        let now = now()
        return saved.lockout.lockedUntil(peer: peer, now: now).map { $0.timeIntervalSince(now) }
    }

    /// The peers locked out now (by identity fingerprint), with the seconds until each may
    /// pair again.
    public var lockedPeers: [String: TimeInterval] {
        get async {
            await refresh()
            let now = now()
            return saved.lockout.lockedPeers(now: now).mapValues { $0.timeIntervalSince(now) }
        }
    }

    /// Seconds until the last lock of any peer ends, or `nil` when no peer is locked out.
    /// Pairing is never locked for everyone: other peers may pair meanwhile.
    public var pairingLockedFor: TimeInterval? {
        get async { await lockedPeers.values.max() }
    }

    /// The paired device holding this identity key, if it is still trusted.
    public func device(identityKey: [UInt8]) async -> PairedDevice? {
        await refresh()
        return saved.trusted.device(identityKey: identityKey)
    }

    /// Pairs `peer` for `services` now, clearing its failed attempts. A store that cannot be
    /// written keeps the change in memory and logs the error.
    public func trust(_ peer: PeerIdentity, services: [String]) async {
        let date = now()
        await change { record in
            record.trusted.trust(peer, services: services, at: date)
            record.lockout.recordSuccess(peer: peer.fingerprint)
        }
    }

    /// Forgets device `id` and returns it, or nil when it was not paired; its next message closes its link.
    @discardableResult
    public func revoke(id: String) async -> PairedDevice? {
        await refresh()
        let removed = saved.trusted.device(id: id)
        await change { record in record.trusted.revoke(id: id) }
        return removed
    }

    /// Counts a failure this side proved against `peer` (an identity fingerprint).
    public func recordFailedPairing(peer: String) async {
        let date = now()
        await change { record in record.lockout.recordFailure(peer: peer, now: date) }
    }

    /// Reads a shared store again (another node may have paired or revoked a device); keeps
    /// what it knew when the store cannot be read.
    private func refresh() async {
        guard let store, store.isShared else { return }
        do {
            if let record = try await store.trust() { saved = record }
        } catch {
            Self.logger.error("could not read trusted devices: \(error)")
        }
    }

    private func change(_ body: @escaping @Sendable (inout DeviceTrustRecord) -> Void) async {
        guard let store else { return body(&saved) }
        do {
            saved = try await store.modifyTrust(initial: saved, body)
        } catch {
            body(&saved)
            Self.logger.error("could not save trusted devices: \(error)")
        }
    }
}
