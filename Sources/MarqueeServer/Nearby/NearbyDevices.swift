public import DeviceLink
public import Foundation
import Library
import Playback

/// The TV side of nearby devices: this server's device identity, its trusted devices, the
/// pairings waiting for the person's approval (the `/devices` page or the API answers them),
/// the TCP listener, the DNS-SD advertisement, and the links of connected devices, whose
/// messages go to the playback session on screen or to the Tic-Tac-Toe game.
public actor NearbyDevices {
    /// A device asking to pair, shown with its code until the person approves or rejects.
    /// `incoming`: the device asked this TV; `outgoing`: this TV asked the device (chosen on
    /// `/devices`), which shows the same code and asks its own person.
    public struct PendingPairing: Sendable, Codable, Hashable {
        /// Who asked: `incoming` (the device asked this TV) or `outgoing` (this TV asked the device).
        public enum Direction: String, Sendable, Codable, Hashable { case incoming, outgoing }
        /// A lower-case UUID naming this request; the `/devices` page answers it by this ID.
        public var id: String
        public var direction: Direction = .incoming
        /// The device ID the other device claims (trust itself rests on its identity key).
        public var deviceID: String
        /// The name the device gave (`Aki's phone`).
        public var name: String
        /// The platform the device gave (`linux`, `web`…), shown beside its name.
        public var platform: String
        /// The device's identity key fingerprint, for a person to compare.
        public var fingerprint: String
        /// The identifier of the application service the device asks to use.
        public var service: String
        /// The six digits both devices show; approve only when they match.
        public var code: String
        /// When the request arrived; `pendingPairings` lists the oldest first.
        public var since: Date
    }

    /// This TV's long-term identity (Ed25519 key, device ID, name, `linux` platform), loaded from
    /// `identity.json` or created at first start; in memory only without a directory.
    public nonisolated let identity: DeviceIdentity
    /// The application services this TV declares to devices in the handshake.
    public nonisolated let services: ApplicationServices
    /// The paired devices and the pairing lockout (`trusted-devices.json`, or a store shared by nodes).
    public nonisolated let trust: DeviceTrust
    /// The TV's pages that open the player when a paired device asks ("Play on…").
    public nonisolated let screens = NearbyScreens()
    let sessions: PlaybackSessions
    let authorization: any LinkAuthorization
    private var pending: [String: (PendingPairing, CheckedContinuation<Bool, Never>)] = [:]
    private var links: [ObjectIdentifier: LinkConnection] = [:]
    private var games: [String: (game: TicTacToe, device: String, updated: Date)] = [:]
    private var listener: TCPLinkListener?
    private var advertisement: DNSSDAdvertisement?
    /// Why DNS-SD advertising failed or is off, as shown on `/devices`; `nil` while advertised.
    public private(set) var advertisingProblem: String?
    let heartbeat: HeartbeatPolicy
    /// Pairings this TV started (`startPairing`), by id, and their links while they last.
    var outgoing: [String: OutgoingPairing] = [:]
    var outgoingClients: [String: (client: LinkClient, peerKey: [UInt8]?)] = [:]
    /// Where the other TVs this one paired with listen ("Play on…" connects there).
    public nonisolated let pairedTVs: PairedTVAddresses
    /// The library items are looked up in ("Play on…" both ways); nil until `use(library:)`.
    var library: MediaLibrary?

    /// Loads (or creates) the identity and trusted devices under `directory`.
    public init(
        directory: URL?, name: String, sessions: PlaybackSessions, services: ApplicationServices = .marquee,
        authorization: any LinkAuthorization = ApplicationServiceAuthorization(),
        heartbeat: HeartbeatPolicy = HeartbeatPolicy()
    ) throws {
        if let directory {
            identity = try StoredIdentity.loadOrCreate(at: directory.appendingPathComponent("identity.json"), name: name, platform: "linux")
            trust = try DeviceTrust(file: directory.appendingPathComponent("trusted-devices.json"))
            pairedTVs = PairedTVAddresses(file: directory.appendingPathComponent("paired-tvs.json"))
        } else {
            identity = DeviceIdentity(name: name, platform: "linux")
            trust = try DeviceTrust()
            pairedTVs = PairedTVAddresses(file: nil)
        }
        self.services = services
        self.sessions = sessions
        self.authorization = authorization
        self.heartbeat = heartbeat
    }

    /// Uses an identity and trust already loaded (from a `DevicePairingStore` shared by server
    /// nodes); the addresses of TVs this node paired with stay in `pairedTVs` (per node).
    public init(
        identity: DeviceIdentity, trust: DeviceTrust, sessions: PlaybackSessions, services: ApplicationServices = .marquee,
        authorization: any LinkAuthorization = ApplicationServiceAuthorization(),
        heartbeat: HeartbeatPolicy = HeartbeatPolicy(), pairedTVs: PairedTVAddresses = PairedTVAddresses(file: nil)
    ) {
        self.identity = identity
        self.trust = trust
        self.pairedTVs = pairedTVs
        self.services = services
        self.sessions = sessions
        self.authorization = authorization
        self.heartbeat = heartbeat
    }

    nonisolated var responder: LinkResponder {
        LinkResponder(identity: identity, services: services, trust: trust, authorization: authorization, heartbeat: heartbeat)
    }

    /// Starts the TCP listener; call before `advertise`. Returns the bound port.
    public func listen(host: String, port: Int) async throws -> Int {
        let listener = try await TCPLinkListener.bind(host: host, port: port)
        self.listener = listener
        listeningHost = host
        self.port = listener.port
        Task { for await transport in listener.transports { Task { await self.accept(transport) } } }
        return listener.port
    }

    /// Advertises `_marquee._tcp` with the TXT record peers filter on. A missing daemon is
    /// reported (and kept for `/api/devices`), not fatal: devices can still connect by address.
    public func advertise(port: Int) async -> String? {
        let txt: [(String, String)] = [
            ("txtvers", "1"), ("id", identity.deviceID), ("fp", identity.fingerprint), ("pf", identity.platform),
            ("name", identity.name), ("services", services.services.map(\.identifier).joined(separator: ",")),
        ]
        do {
            advertisement = try await DNSSDAdvertisement.register(name: identity.name, port: port, txt: txt)
            advertisingProblem = nil
        } catch {
            advertisingProblem = "\(error)"
        }
        return advertisingProblem
    }

    /// Whether the DNS-SD advertisement is registered now.
    public var isAdvertised: Bool { advertisement != nil }

    /// The instance name DNS-SD advertises: the device's name, shortened to 63 bytes and
    /// renamed "Name (2)" when another device nearby uses it.
    public var advertisedName: String? { advertisement?.name }

    /// Records why the service is not advertised (shown on `/devices`).
    public func notAdvertised(because reason: String) {
        advertisingProblem = reason
    }
    /// The TCP port devices connect to, once listening.
    public private(set) var port: Int?
    /// The address the listener is bound to (the server's `--host`), once listening.
    public private(set) var listeningHost: String?

    /// Stops advertising, closes the listener and stops the links this TV started. It returns
    /// at once; the outgoing links stop in a task of their own.
    public func stop() {
        advertisement?.stop()
        listener?.close()
        // Links this TV started (to remotes it chose) end too.
        let clients = outgoingClients.values.map(\.client)
        outgoingClients = [:]
        Task { for client in clients { await client.stop() } }
    }

    /// Runs the handshake on a new transport and serves the link.
    public func accept(_ transport: any LinkTransport) async {
        guard
            let connection = try? await responder.accept(
                transport,
                approve: { code, peer, service in
                    await self.awaitApproval(code: code, peer: peer, service: service)
                })
        else { return }
        links[ObjectIdentifier(connection)] = connection
        let remote = NearbyRemoteSession(connection: connection, devices: self)
        await remote.run()
        links[ObjectIdentifier(connection)] = nil
    }

    // MARK: - Approval

    /// At most this many pairings wait for the person at once; more are rejected (and count
    /// towards the lockout), so a flood of requests cannot bury the real one.
    static let maximumPendingPairings = 4

    func awaitApproval(
        code: PairingCode, peer: PeerIdentity, service: String, id: String = UUID().uuidString.lowercased(),
        direction: PendingPairing.Direction = .incoming
    ) async -> Bool {
        guard pending.count < Self.maximumPendingPairings else { return false }
        let pairing = PendingPairing(
            id: id, direction: direction, deviceID: peer.deviceID, name: peer.name, platform: peer.platform,
            fingerprint: peer.fingerprint, service: service, code: code.digits, since: Date())
        if direction == .outgoing { outgoingShowsCode(id, code: code.digits, peer: peer) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending[id] = (pairing, continuation)
            }
        } onCancel: {
            Task { await self.answer(id, approved: false) }
        }
    }

    /// The person's answer on the TV; false when there is no such pending pairing.
    @discardableResult
    public func answer(_ id: String, approved: Bool) -> Bool {
        guard let (_, continuation) = pending.removeValue(forKey: id) else { return false }
        continuation.resume(returning: approved)
        return true
    }

    /// The pairings waiting for an answer, oldest first (at most four at a time).
    public var pendingPairings: [PendingPairing] { pending.values.map(\.0).sorted { $0.since < $1.since } }

    /// Forgets a device and closes its open links at once.
    public func revoke(id: String) async -> PairedDevice? {
        guard let device = await trust.revoke(id: id) else { return nil }
        for connection in links.values where connection.peer.identityKey == device.peer.identityKey { await connection.close() }
        for (client, key) in outgoingClients.values where key == device.peer.identityKey { await client.stop() }
        await pairedTVs.forget(deviceID: device.id)
        return device
    }

    // MARK: - Game state, kept per session so it survives reconnections

    func game(for session: String) -> TicTacToe { games[session]?.game ?? TicTacToe() }
    func setGame(_ game: TicTacToe, for session: String, device: String) { games[session] = (game, device, Date()) }

    /// The games on the TV, the most recently played first (the board the TV shows).
    public var currentGames: [(session: String, device: String, game: TicTacToe)] {
        games.sorted { $0.value.updated > $1.value.updated }.map { ($0.key, $0.value.device, $0.value.game) }
    }
}
