import DeviceLink
public import Foundation
public import Library
import NIOCore

/// The TV's side of the picker, like DeviceDiscoveryUI: the person chooses a device found
/// nearby (another Marquee TV, or a `marquee remote --listen`) and this TV connects to it and
/// asks it to pair. Both show the same six digits and each person approves on their own
/// device; the lockout and revocation are the same as when the device asks. Once paired:
///
/// - a **remote** controls this TV over the link the TV started (the TV keeps it and
///   reconnects with backoff, as the connecting side does);
/// - another **TV** is remembered with its address, so "Play on…" can hand items to it.
extension NearbyDevices {
    /// What a chosen device is to this TV.
    public enum PeerRole: String, Sendable, Codable, Hashable {
        /// Controls this TV (`marquee remote --listen`).
        case remote
        /// Another Marquee server: a TV this one can hand items to.
        case tv
    }

    /// A device the person chose, by address (as `GET /api/devices/nearby` lists it, or typed).
    public struct PairingTarget: Sendable, Codable, Hashable {
        /// A host name or IP address (surrounding spaces are trimmed; at most 253 characters).
        public var host: String
        /// The device's TCP port, 1–65535.
        public var port: Int
        /// The identity fingerprint it advertises; the handshake refuses another key.
        public var fingerprint: String?
        /// What the device is to this TV; `nil` means `tv`.
        public var role: PeerRole?
        /// The name to list the pairing under; `nil` shows `host:port`.
        public var name: String?
        /// The application service to pair for (default `remote`).
        public var service: String?

        /// A target; `startPairing(with:)` checks it and throws `ChoosingError.badTarget` when it is malformed.
        public init(host: String, port: Int, fingerprint: String? = nil, role: PeerRole? = nil, name: String? = nil, service: String? = nil) {
            self.host = host
            self.port = port
            self.fingerprint = fingerprint
            self.role = role
            self.name = name
            self.service = service
        }

        /// Why this target cannot be tried, or nil.
        func problem(services: ApplicationServices) -> String? {
            let host = host.trimmingCharacters(in: .whitespaces)
            if host.isEmpty || host.unicodeScalars.count > 253 || host.contains(where: { " /?#@".contains($0) }) {
                return "host must be a host name or an IP address, e.g. 192.168.1.20"
            }
            if !(1...65535).contains(port) { return "port must be between 1 and 65535" }
            if let fingerprint, fingerprint.count != 32 || !fingerprint.allSatisfy(\.isHexDigit) {
                return "fingerprint must be the 32 hex digits the device advertises"
            }
            if let service, services[service] == nil {
                return "Unknown application service \"\(service)\"; this TV offers \(services.services.map(\.identifier).joined(separator: ", "))"
            }
            return nil
        }
    }

    /// A pairing this TV started, as `/devices` shows it.
    public struct OutgoingPairing: Sendable, Codable, Hashable {
        /// Where a pairing this TV started stands.
        public enum State: String, Sendable, Codable, Hashable {
            /// Connecting and starting the handshake.
            case connecting
            /// Both devices show `code`; waiting for both people.
            case confirming
            /// Paired (a remote stays connected).
            case paired
            case failed
        }
        /// A lower-case UUID; also the `id` of the matching entry in `pendingPairings`.
        public var id: String
        /// The target's name (else `host:port`), replaced by the name the device gives once it
        /// shows the code.
        public var name: String
        /// The address connected to, trimmed.
        public var host: String
        /// The TCP port connected to.
        public var port: Int
        /// What the device will be to this TV (`tv` unless the target said otherwise).
        public var role: PeerRole
        /// The application service paired for (`remote` unless the target said otherwise).
        public var service: String
        /// Connecting, confirming, paired or failed; finished pairings stay listed for two minutes.
        public var state: State
        /// The six digits both devices show, once the handshake has reached `confirming`.
        public var code: String?
        /// Why it failed, in words.
        public var message: String?
        /// When the pairing was started; `outgoingPairings` lists the newest first.
        public var since: Date
    }

    /// Failed or finished pairings stay listed this long, so the page can say how it ended.
    static let outgoingKeptFor: TimeInterval = 120

    /// Sets the library "Play on…" looks items up in, both ways; until then item IDs are passed
    /// through unchecked (as tests of the link alone do).
    public func use(library: MediaLibrary) {
        self.library = library
    }

    /// The pairings this TV started, the newest first.
    public var outgoingPairings: [OutgoingPairing] {
        let now = Date()
        outgoing = outgoing.filter {
            $0.value.state == .connecting || $0.value.state == .confirming || now.timeIntervalSince($0.value.since) < Self.outgoingKeptFor
        }
        return outgoing.values.sorted { $0.since > $1.since }
    }

    /// Connects to `target` and asks it to pair; the progress shows in `outgoingPairings` and
    /// the code in `pendingPairings` (direction `outgoing`, answered like any other pairing).
    /// Throws `ChoosingError` for a bad target or while pairing is locked.
    public func startPairing(with target: PairingTarget) async throws -> OutgoingPairing {
        if let problem = target.problem(services: services) { throw ChoosingError.badTarget(problem) }
        // Locks are per peer: by the fingerprint it advertises, else by its address.
        let lockKey = target.fingerprint?.lowercased() ?? "\(target.host.trimmingCharacters(in: .whitespaces)):\(target.port)"
        if let lockedFor = await trust.pairingLockedFor(peer: lockKey) { throw ChoosingError.locked(lockedFor) }
        let service = target.service ?? "remote"
        let role = target.role ?? .tv
        let id = UUID().uuidString.lowercased()
        let host = target.host.trimmingCharacters(in: .whitespaces)
        let pairing = OutgoingPairing(
            id: id, name: target.name ?? "\(host):\(target.port)", host: host, port: target.port, role: role, service: service,
            state: .connecting, since: Date())
        outgoing[id] = pairing
        let client = LinkClient(
            identity: identity, trust: trust, service: service, purpose: .pair, expectedFingerprint: target.fingerprint,
            session: "tv-\(id)", backoff: ReconnectBackoff(attempts: role == .remote ? 50 : 0), heartbeat: heartbeat,
            connect: { try await TCPTransport.connect(host: host, port: target.port, timeout: .seconds(3)) },
            approve: { code, peer, service in await self.awaitApproval(code: code, peer: peer, service: service, id: id, direction: .outgoing) },
            admits: admission(role: role, service: service))
        outgoingClients[id] = (client, nil)
        Task { await self.follow(client, id: id, role: role, service: service, host: host, port: target.port, lockKey: lockKey) }
        await client.start()
        return pairing
    }

    /// Why a chosen device could not be asked.
    public enum ChoosingError: Error, Sendable, CustomStringConvertible {
        case badTarget(String)
        case locked(TimeInterval)

        public var description: String {
            switch self {
            case .badTarget(let problem): problem
            case .locked(let seconds): "Too many failed pairings with that device: try it again in \(Int(seconds.rounded(.up))) s"
            }
        }
    }

    /// A remote's messages pass the same check as on links it starts; another TV sends only
    /// what it would send any remote (now playing), which this TV reads and does not act on.
    private func admission(role: PeerRole, service: String) -> @Sendable (LinkMessageType, PeerIdentity) async -> LinkClosed? {
        let trust = trust
        let services = services
        let authorization = authorization
        return { type, peer in
            switch role {
            case .tv:
                return await trust.device(identityKey: peer.identityKey) == nil ? .revoked : nil
            case .remote:
                return await LinkResponder.admission(
                    trust: trust, services: services, authorization: authorization, peerKey: peer.identityKey, service: service)(type)
            }
        }
    }

    private func follow(_ client: LinkClient, id: String, role: PeerRole, service: String, host: String, port: Int, lockKey: String) async {
        var remote: Task<Void, Never>?
        for await event in client.events {
            switch event {
            case .connected(let peer, _):
                outgoingClients[id] = (client, peer.identityKey)
                update(id) {
                    $0.state = .paired
                    $0.name = peer.name
                }
                switch role {
                case .tv:
                    await pairedTVs.remember(
                        .init(deviceID: peer.deviceID, name: peer.name, fingerprint: peer.fingerprint, host: host, port: port))
                    await client.stop()
                case .remote:
                    if remote == nil {
                        let session = NearbyRemoteSession(client: client, peer: peer, service: service, devices: self)
                        remote = Task { await session.run() }
                    }
                }
            case .stopped(let reason):
                if case .handshake(let failure) = reason, failure.countsAsFailedPairing { await trust.recordFailedPairing(peer: lockKey) }
                if outgoing[id]?.state != .paired {
                    update(id) {
                        $0.state = .failed
                        $0.message = Self.describe(reason)
                    }
                }
                answer(id, approved: false)
            case .disconnected, .reconnecting:
                break
            }
        }
        remote?.cancel()
        outgoingClients[id] = nil
    }

    private static func describe(_ reason: LinkClosed) -> String {
        switch reason {
        case .handshake(.refusedByPeer(.rejected, _)): "The other device rejected the pairing"
        case .handshake(.refused(.rejected)): "Rejected on this TV"
        case .handshake(.refusedByPeer(.pairingLocked, let retryAfter)):
            "The other device is locked after too many failed pairings"
                + (retryAfter.map { " (try again in \(Int($0.rounded(.up))) s)" } ?? "")
        case .handshake(.refused(.unexpectedIdentity)): "The device answered with another identity than it advertises"
        case .transportAborted: "Could not connect to the device"
        default: reason.description
        }
    }

    func outgoingShowsCode(_ id: String, code: String, peer: PeerIdentity) {
        update(id) {
            $0.state = .confirming
            $0.code = code
            $0.name = peer.name
        }
    }

    private func update(_ id: String, _ change: (inout OutgoingPairing) -> Void) {
        guard var pairing = outgoing[id] else { return }
        change(&pairing)
        pairing.since = Date()
        outgoing[id] = pairing
    }
}
