import Foundation

/// The trusted devices and the pairing lockout of one device, saved to a JSON file (owner
/// read/write only) after every change so a restart forgets nothing.
public actor DeviceTrust {
    private struct Saved: Codable {
        var trusted: TrustedDevices
        var lockout: PairingLockout
    }

    private var saved: Saved
    private let file: URL?
    private let now: @Sendable () -> Date

    /// Trust kept in memory only (tests), or in `file`.
    public init(file: URL? = nil, lockout: PairingLockout = PairingLockout(), now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.file = file
        self.now = now
        if let file, let data = try? Data(contentsOf: file) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            saved = try decoder.decode(Saved.self, from: data)
        } else {
            saved = Saved(trusted: TrustedDevices(), lockout: lockout)
        }
    }

    public var trusted: TrustedDevices { saved.trusted }
    public var devices: [PairedDevice] { saved.trusted.devices }

    /// Seconds until pairing opens again, or `nil` if it is open.
    public var pairingLockedFor: TimeInterval? {
        let now = now()
        return saved.lockout.lockedUntil(now: now).map { $0.timeIntervalSince(now) }
    }

    public func device(identityKey: [UInt8]) -> PairedDevice? {
        saved.trusted.device(identityKey: identityKey)
    }

    public func trust(_ peer: PeerIdentity, services: [String]) {
        saved.trusted.trust(peer, services: services, at: now())
        saved.lockout.recordSuccess()
        persist()
    }

    @discardableResult
    public func revoke(id: String) -> PairedDevice? {
        let removed = saved.trusted.revoke(id: id)
        persist()
        return removed
    }

    public func recordFailedPairing() {
        saved.lockout.recordFailure(now: now())
        persist()
    }

    private func persist() {
        guard let file else { return }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            try encoder.encode(saved).write(to: file, options: .atomic)
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        } catch {
            FileHandle.standardError.write(Data("devicelink: could not save trusted devices to \(file.path): \(error)\n".utf8))
        }
    }
}
