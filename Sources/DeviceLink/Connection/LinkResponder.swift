import Foundation

/// The accepting side of device links (the TV): runs the handshake for each incoming
/// transport against its trusted devices and lockout, then admits each message through the
/// authorization.
public struct LinkResponder: Sendable {
    /// This device's identity, which signs its side of each handshake.
    public var identity: DeviceIdentity
    /// The application services this device offers.
    public var services: ApplicationServices
    /// The paired devices and the pairing lockout.
    public var trust: DeviceTrust
    /// Decides which messages a paired device may send.
    public var authorization: any LinkAuthorization
    /// Heartbeats of the connections it makes.
    public var heartbeat: HeartbeatPolicy
    /// The longest a whole handshake may take, a person's approval included.
    public var handshakeTimeout: Duration
    /// How long a new connection may stay silent before its hello: a connection that holds
    /// a slot and says nothing is closed after this, not after `handshakeTimeout`.
    public var helloTimeout: Duration
    /// The largest frame payload accepted, in bytes.
    public var maximumPayload: Int

    /// A responder with the given parts; by default `ApplicationServiceAuthorization` decides what a device may send.
    public init(
        identity: DeviceIdentity, services: ApplicationServices, trust: DeviceTrust,
        authorization: any LinkAuthorization = ApplicationServiceAuthorization(),
        heartbeat: HeartbeatPolicy = HeartbeatPolicy(), handshakeTimeout: Duration = .seconds(120),
        helloTimeout: Duration = .seconds(10), maximumPayload: Int = Frame.defaultMaximumPayload
    ) {
        self.helloTimeout = helloTimeout
        self.identity = identity
        self.services = services
        self.trust = trust
        self.authorization = authorization
        self.heartbeat = heartbeat
        self.handshakeTimeout = handshakeTimeout
        self.maximumPayload = maximumPayload
    }

    /// Runs the handshake on a new transport. On success the connection is started; on
    /// failure the transport is closed, and a failure this side proved (a rejected code, a
    /// commitment or signature that failed) counts towards that peer's lockout.
    public func accept(_ transport: any LinkTransport, approve: @escaping LinkHandshake.Approver) async throws -> LinkConnection {
        let locked = await trust.lockedPeers
        let policy = PairingHandshake.ResponderPolicy(
            trusted: await trust.trusted, services: services, pairingLockedFor: { locked[$0] })
        let reader = FrameReader(transport: transport, maximumPayload: maximumPayload)
        let establishment: LinkEstablishment
        let trust = trust
        do {
            establishment = try await LinkHandshake.run(
                PairingHandshake(respondingAs: identity, policy: policy), sending: [],
                transport: transport, reader: reader, timeout: handshakeTimeout, firstFrameTimeout: helloTimeout, approve: approve,
                failed: { failure, peer in
                    if failure.countsAsFailedPairing, let peer { await trust.recordFailedPairing(peer: peer.fingerprint) }
                })
        } catch let closed as LinkClosed {
            await transport.close()
            throw closed
        } catch {
            await transport.close()
            throw error
        }
        if establishment.newlyPaired { await trust.trust(establishment.peer, services: [establishment.service]) }
        let connection = LinkConnection(
            establishment: establishment, isInitiator: false, transport: transport, reader: reader,
            heartbeat: heartbeat,
            admits: Self.admission(
                trust: trust, services: services, authorization: authorization, peerKey: establishment.peer.identityKey,
                service: establishment.service))
        await connection.start()
        return connection
    }

    /// The check every inbound application message of a link passes: the peer is still trusted
    /// for the service (else `.revoked`), and the authorization admits the message (else
    /// `.notAllowed`). The same check whichever side started the link.
    public static func admission(
        trust: DeviceTrust, services: ApplicationServices, authorization: any LinkAuthorization, peerKey: [UInt8], service serviceID: String
    ) -> @Sendable (LinkMessageType) async -> LinkClosed? {
        { type in
            guard let device = await trust.device(identityKey: peerKey), device.services.contains(serviceID) else { return .revoked }
            guard let service = services[serviceID], await authorization.mayPerform(type, service: service, device: device) else {
                return .notAllowed(type.rawValue)
            }
            return nil
        }
    }
}
