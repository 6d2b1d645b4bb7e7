public import Foundation

/// Reconnection timing for the side that connects: waits `initial`, doubling up to
/// `maximum`, between attempts after a connection is lost; a connection that was
/// established resets it.
public struct ReconnectBackoff: Sendable {
    /// The wait before the first retry.
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration
    /// Attempts in a row after which the client gives up.
    public var attempts: Int

    /// 200 ms doubling up to 10 s, for 50 attempts, unless told otherwise.
    public init(initial: Duration = .milliseconds(200), maximum: Duration = .seconds(10), attempts: Int = 50) {
        self.initial = initial
        self.maximum = maximum
        self.attempts = attempts
    }

    /// The wait before retry number `attempt` (0-based).
    public func delay(forAttempt attempt: Int) -> Duration {
        var delay = initial
        for _ in 0..<min(attempt, 30) where delay < maximum { delay = delay * 2 }
        return min(delay, maximum)
    }
}

/// The connecting side of a device link (the phone, `marquee remote`): pairs or recognises
/// the peer, keeps one session across reconnections, and reconnects with backoff when the
/// connection is aborted. Messages sent while disconnected wait for the next connection.
/// `admits` is asked about every inbound application message (with the peer it came from), as the responder asks its
/// authorization: a TV that starts the link to a remote still refuses a revoked device's intents.
public actor LinkClient {
    /// What happened to the link, for a UI.
    public enum Event: Sendable {
        /// A link was established with the peer; `newlyPaired` when a person approved it just now.
        case connected(PeerIdentity, newlyPaired: Bool)
        /// The link closed, for this reason.
        case disconnected(LinkClosed)
        /// The client tries again, for the `attempt`th time, after the wait.
        case reconnecting(attempt: Int, after: Duration)
        /// The client stopped: a refusal, a rejection, or too many attempts.
        case stopped(LinkClosed)
    }

    /// The session the client keeps across reconnections (a lower-case UUID unless given).
    public nonisolated let session: String
    /// Application messages from the peer, over every connection in turn.
    public nonisolated let messages: AsyncStream<LinkMessage>
    /// What happens to the link, in order, for a UI.
    public nonisolated let events: AsyncStream<Event>

    private let identity: DeviceIdentity
    private let trust: DeviceTrust
    private let service: String
    private let purpose: PairingHandshake.Purpose
    private let expectedFingerprint: String?
    private let connect: @Sendable () async throws -> any LinkTransport
    private let approve: LinkHandshake.Approver
    private let backoff: ReconnectBackoff
    private let heartbeat: HeartbeatPolicy
    private let admits: @Sendable (LinkMessageType, PeerIdentity) async -> LinkClosed?
    private let messageContinuation: AsyncStream<LinkMessage>.Continuation
    private let eventContinuation: AsyncStream<Event>.Continuation
    private var connection: LinkConnection?
    private var waiting: [(LinkMessageType, [UInt8])] = []
    private var runner: Task<Void, Never>?
    private var stopped = false
    /// How many links were established so far.
    public private(set) var connectionCount = 0

    /// A client of `service` that reaches the peer with `connect` and asks `approve` when a
    /// person must confirm the code; nothing happens until `start()`.
    public init(
        identity: DeviceIdentity, trust: DeviceTrust, service: String, purpose: PairingHandshake.Purpose = .pair,
        expectedFingerprint: String? = nil, session: String = UUID().uuidString.lowercased(),
        backoff: ReconnectBackoff = ReconnectBackoff(), heartbeat: HeartbeatPolicy = HeartbeatPolicy(),
        connect: @escaping @Sendable () async throws -> any LinkTransport, approve: @escaping LinkHandshake.Approver,
        admits: @escaping @Sendable (LinkMessageType, PeerIdentity) async -> LinkClosed? = { _, _ in nil }
    ) {
        self.admits = admits
        self.identity = identity
        self.trust = trust
        self.service = service
        self.purpose = purpose
        self.expectedFingerprint = expectedFingerprint
        self.session = session
        self.backoff = backoff
        self.heartbeat = heartbeat
        self.connect = connect
        self.approve = approve
        (messages, messageContinuation) = AsyncStream.makeStream(of: LinkMessage.self)
        (events, eventContinuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// Connects, and keeps reconnecting until `stop()` or a failure that retrying cannot fix.
    public func start() {
        guard runner == nil else { return }
        runner = Task { await self.run() }
    }

    /// Stops for good: closes the link and finishes `messages` and `events`.
    public func stop() async {
        stopped = true
        runner?.cancel()
        if let connection { await connection.close() }
        finish(.closedLocally)
    }

    /// The current connection, if connected (tests use it to abort).
    public var current: LinkConnection? { connection }

    /// Sends now if connected, otherwise when the link is back.
    public func send(_ type: LinkMessageType, _ payload: [UInt8] = []) async {
        if let connection, (try? await connection.send(type, payload)) != nil { return }
        waiting.append((type, payload))
    }

    private func run() async {
        var attempt = 0
        while !stopped && !Task.isCancelled {
            do {
                let connection = try await establish()
                attempt = 0
                self.connection = connection
                connectionCount += 1
                eventContinuation.yield(.connected(connection.peer, newlyPaired: connection.newlyPaired))
                let queued = waiting
                waiting = []
                for (type, payload) in queued { try? await connection.send(type, payload) }
                do {
                    for try await message in connection.messages { messageContinuation.yield(message) }
                    self.connection = nil
                    if stopped { return }
                    let reason = await connection.closeReason ?? .closedByPeer
                    eventContinuation.yield(.disconnected(reason))
                    if !reason.isRetryable { return finish(reason) }
                } catch {
                    self.connection = nil
                    let reason = error as? LinkClosed ?? .transportAborted
                    eventContinuation.yield(.disconnected(reason))
                    if !reason.isRetryable { return finish(reason) }
                }
            } catch {
                let reason = error as? LinkClosed ?? .transportAborted
                if !reason.isRetryable || attempt >= backoff.attempts { return finish(reason) }
            }
            let delay = backoff.delay(forAttempt: attempt)
            attempt += 1
            eventContinuation.yield(.reconnecting(attempt: attempt, after: delay))
            try? await Task.sleep(for: delay)
        }
    }

    private func establish() async throws -> LinkConnection {
        let transport: any LinkTransport
        do { transport = try await connect() } catch { throw LinkClosed.transportAborted }
        let request = PairingHandshake.InitiatorRequest(
            trusted: await trust.trusted, service: service, session: session,
            purpose: purpose, expectedFingerprint: expectedFingerprint)
        let (handshake, hello) = PairingHandshake.initiate(identity: identity, request: request)
        let reader = FrameReader(transport: transport)
        let establishment: LinkEstablishment
        do {
            establishment = try await LinkHandshake.run(handshake, sending: [hello], transport: transport, reader: reader, approve: approve)
        } catch {
            await transport.close()
            throw error
        }
        if establishment.newlyPaired { await trust.trust(establishment.peer, services: [service]) }
        let connection = LinkConnection(
            establishment: establishment, isInitiator: true, transport: transport, reader: reader,
            heartbeat: heartbeat, admits: { [admits, peer = establishment.peer] type in await admits(type, peer) })
        await connection.start()
        return connection
    }

    private func finish(_ reason: LinkClosed) {
        guard !stoppedFinished else { return }
        stoppedFinished = true
        eventContinuation.yield(.stopped(reason))
        eventContinuation.finish()
        messageContinuation.finish()
    }

    private var stoppedFinished = false
}
