public import Clocks
import Foundation

/// An application message received on an established link.
public struct LinkMessage: Sendable, Hashable {
    /// What the message is (`intent`, `nowPlaying`, …).
    public var type: LinkMessageType
    /// Its opened payload (JSON for the remote-control messages).
    public var payload: [UInt8]

    /// A message of `type` carrying `payload`.
    public init(_ type: LinkMessageType, payload: [UInt8]) {
        self.type = type
        self.payload = payload
    }
}

/// Heartbeat timing: a sealed heartbeat is sent every `interval` while idle; a peer not heard
/// from for `interval × missedBeats` is treated as gone. Both are measured on `clock` (the
/// system's; tests pass a manual one and move it by hand).
public struct HeartbeatPolicy: Sendable {
    /// How long a side stays silent before it sends a heartbeat.
    public var interval: Duration
    /// How many intervals without hearing from the peer close the link.
    public var missedBeats: Int
    /// The clock both are measured on.
    public var clock: any WallClock

    /// A beat every 5 s, giving up after 15 s of silence, on the system clock, unless told otherwise.
    public init(interval: Duration = .seconds(5), missedBeats: Int = 3, clock: any WallClock = SystemClock()) {
        self.interval = interval
        self.missedBeats = missedBeats
        self.clock = clock
    }
}

/// An established, encrypted link to a peer: sealed frames out in order, opened frames in.
///
/// Any frame that fails to open (replayed, reordered, altered), a frame error, a peer that
/// misses its heartbeats, or a message the authorization refuses closes the link; `messages`
/// then finishes with the reason.
public actor LinkConnection {
    /// Who is on the other end, as the handshake proved.
    public nonisolated let peer: PeerIdentity
    /// The application service the link is for (`remote`).
    public nonisolated let service: String
    /// The session the initiator keeps across reconnections.
    public nonisolated let session: String
    /// Whether this handshake paired the devices (a person approved), rather than recognised a paired one.
    public nonisolated let newlyPaired: Bool
    /// Application messages from the peer (heartbeats and goodbyes are handled here).
    public nonisolated let messages: AsyncThrowingStream<LinkMessage, any Error>

    private var channel: SecureChannel
    private let reader: FrameReader
    private let transport: any LinkTransport
    private let outbound: AsyncStream<[UInt8]>.Continuation
    private let inbound: AsyncThrowingStream<LinkMessage, any Error>.Continuation
    private let heartbeat: HeartbeatPolicy
    private var lastHeard: Duration
    private var lastSent: Duration
    private var closedReason: LinkClosed?
    private var tasks: [Task<Void, Never>] = []
    private let admits: @Sendable (LinkMessageType) async -> LinkClosed?

    /// Wraps an established transport. `admits` is asked about every inbound application
    /// message and returns why it must close the link (not allowed, revoked), or `nil`.
    public init(
        establishment: LinkEstablishment, isInitiator: Bool, transport: any LinkTransport, reader: FrameReader,
        heartbeat: HeartbeatPolicy = HeartbeatPolicy(), frameLimit: UInt64 = UInt64.max,
        admits: @escaping @Sendable (LinkMessageType) async -> LinkClosed? = { _ in nil }
    ) {
        peer = establishment.peer
        service = establishment.service
        session = establishment.session
        newlyPaired = establishment.newlyPaired
        channel = SecureChannel(keys: establishment.keys, isInitiator: isInitiator, frameLimit: frameLimit)
        self.reader = reader
        self.transport = transport
        self.heartbeat = heartbeat
        lastHeard = heartbeat.clock.monotonicNow
        lastSent = lastHeard
        self.admits = admits
        let (outStream, outContinuation) = AsyncStream.makeStream(of: [UInt8].self)
        outbound = outContinuation
        (messages, inbound) = AsyncThrowingStream.makeStream(of: LinkMessage.self)
        let writer = Task {
            for await bytes in outStream {
                do { try await transport.send(bytes) } catch { break }
            }
        }
        tasks = [writer]
    }

    /// Starts reading and the heartbeat. Call once.
    public func start() {
        tasks.append(Task { await self.readLoop() })
        tasks.append(Task { await self.heartbeatLoop() })
    }

    /// When a frame from the peer was last read, on the heartbeat's clock (`monotonicNow`).
    var lastHeardAt: Duration { lastHeard }

    /// Why the link closed, once it has.
    public var closeReason: LinkClosed? { closedReason }

    /// Seals and sends an application message. Throws once the link is closed.
    public func send(_ type: LinkMessageType, _ payload: [UInt8] = []) throws {
        if let closedReason { throw closedReason }
        do {
            let frame = try channel.seal(type, payload)
            outbound.yield(frame.encoded)
            lastSent = heartbeat.clock.monotonicNow
        } catch {
            close(.channel(error))
            throw LinkClosed.channel(error)
        }
    }

    /// Says goodbye and closes.
    public func close() async {
        try? send(.goodbye)
        close(.closedLocally)
    }

    /// Drops the transport without a goodbye (tests: the app was suspended).
    public func abort() async {
        await transport.close()
        close(.transportAborted)
    }

    private func close(_ reason: LinkClosed) {
        guard closedReason == nil else { return }
        closedReason = reason
        switch reason {
        case .closedLocally, .closedByPeer: inbound.finish()
        default: inbound.finish(throwing: reason)
        }
        outbound.finish()
        let transport = transport
        let tasks = tasks
        Task {
            // Let the writer flush (a goodbye), then end the transport.
            for task in tasks.prefix(1) { await task.value }
            await transport.close()
            for task in tasks.dropFirst() { task.cancel() }
        }
    }

    private func readLoop() async {
        while closedReason == nil {
            let frame: Frame?
            do {
                frame = try await reader.next()
            } catch let error as FrameError {
                return close(.frame(error))
            } catch let error as LinkClosed {
                return close(error)
            } catch {
                return close(.transportAborted)
            }
            guard let frame else { return close(.transportAborted) }
            guard closedReason == nil else { return }
            let payload: [UInt8]
            do { payload = try channel.open(frame) } catch { return close(.channel(error)) }
            lastHeard = heartbeat.clock.monotonicNow
            guard let type = LinkMessageType(rawValue: frame.type), !type.isHandshake else { return close(.notAllowed(frame.type)) }
            switch type {
            case .heartbeat: continue
            case .goodbye: return close(.closedByPeer)
            default:
                if let refusal = await admits(type) { return close(refusal) }
                inbound.yield(LinkMessage(type, payload: payload))
            }
        }
    }

    private func heartbeatLoop() async {
        let clock = heartbeat.clock
        while closedReason == nil {
            try? await clock.sleep(for: heartbeat.interval)
            if Task.isCancelled || closedReason != nil { return }
            if clock.monotonicNow - lastHeard > heartbeat.interval * heartbeat.missedBeats {
                await transport.close()
                return close(.peerUnresponsive)
            }
            if clock.monotonicNow - lastSent >= heartbeat.interval { try? send(.heartbeat) }
        }
    }
}
