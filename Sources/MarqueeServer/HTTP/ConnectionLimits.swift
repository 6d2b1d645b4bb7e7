import Foundation
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// How many connections the server keeps and for how long a quiet one may stay open, so a
/// flood of idle or trickling connections cannot exhaust file descriptors.
///
/// `idleTimeout` closes a connection that has no request in progress for that long: between
/// keep-alive requests, and also while a request head trickles in (its bytes are not a
/// request until the head is complete), so it doubles as the header timeout. An open
/// response (a stream of server-sent events, a long segment) is a request in progress and is
/// not cut. Connections past `maximumConnections` are closed as soon as they are accepted,
/// and so are those past `maximumPerAddress` from one client address, so that one client
/// cannot take every place and leave the others' requests waiting.
public struct ConnectionLimits: Sendable {
    public var idleTimeout: Duration
    public var maximumConnections: Int
    /// Most connections one client address may hold at once. Behind a reverse proxy every
    /// client has the proxy's address: set it to `maximumConnections` there.
    public var maximumPerAddress: Int

    public init(
        idleTimeout: Duration = .seconds(30), maximumConnections: Int = ConnectionLimits.defaultMaximum(),
        maximumPerAddress: Int? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.maximumConnections = max(1, maximumConnections)
        self.maximumPerAddress = min(self.maximumConnections, max(1, maximumPerAddress ?? Self.defaultPerAddress(self.maximumConnections)))
    }

    /// A quarter of the connection limit, at least 8: a browser opens six to a host, and a
    /// player page adds its sockets and event streams.
    public static func defaultPerAddress(_ maximumConnections: Int) -> Int {
        min(maximumConnections, max(8, maximumConnections / 4))
    }

    /// Half the process's file-descriptor limit (the other half is for media files, the
    /// database and outgoing connections), at most 8,192.
    public static func defaultMaximum() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 512 }
        #else
        guard getrlimit(RLIMIT_NOFILE, &limit) == 0 else { return 512 }
        #endif
        let soft = limit.rlim_cur == rlim_t.max ? 16_384 : Int(clamping: limit.rlim_cur)
        return min(max(soft / 2, 64), 8192)
    }
}

/// Counts open connections, in all and per client address, and refuses those past either
/// limit. One instance is shared by every connection; each connection's `FirstRequestGuard`
/// takes and gives back a place.
final class ConnectionCount: Sendable {
    let maximum: Int
    let maximumPerAddress: Int
    private let places = Mutex<(open: Int, byAddress: [String: Int])>((0, [:]))

    init(maximum: Int, maximumPerAddress: Int? = nil) {
        self.maximum = maximum
        self.maximumPerAddress = maximumPerAddress ?? maximum
    }

    var current: Int { places.withLock { $0.open } }

    /// Connections open from `address` now.
    func current(from address: String) -> Int { places.withLock { $0.byAddress[address] ?? 0 } }

    /// Takes a place for a new connection from `address`; false when the server is full or
    /// that address holds its share already.
    func admit(from address: String = "") -> Bool {
        places.withLock { places in
            let mine = places.byAddress[address] ?? 0
            guard places.open < maximum, mine < maximumPerAddress else { return false }
            places.open += 1
            places.byAddress[address] = mine + 1
            return true
        }
    }

    func release(from address: String = "") {
        places.withLock { places in
            places.open -= 1
            let left = (places.byAddress[address] ?? 1) - 1
            places.byAddress[address] = left > 0 ? left : nil
        }
    }
}

/// Guards a connection from the moment it is accepted, before Hummingbird's HTTP handlers
/// exist (they are added only once the first request head has been read and the WebSocket
/// upgrade decided): it takes a place in the `ConnectionCount` or closes the connection, and
/// closes it when no complete request head arrives within the idle timeout. After the first
/// head, Hummingbird's connection state handler times out idle keep-alive connections.
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    let count: ConnectionCount
    let timeout: TimeAmount
    private var admitted = false
    private var timer: Scheduled<Void>?
    /// The last bytes seen, to find the blank line that ends the head across reads.
    private var tail: [UInt8] = []

    init(count: ConnectionCount, timeout: TimeAmount) {
        self.count = count
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard !admitted else { return }
        let address = context.channel.remoteAddress?.ipAddress ?? ""
        guard count.admit(from: address) else {
            context.close(promise: nil)
            return
        }
        admitted = true
        let count = self.count
        context.channel.closeFuture.whenComplete { _ in count.release(from: address) }
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: timeout) {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if timer != nil {
            let buffer = unwrapInboundIn(data)
            tail += buffer.readableBytesView.suffix(4096)
            if Self.containsEndOfHead(tail) {
                timer?.cancel()
                timer = nil
                tail = []
            } else if tail.count > 3 {
                tail.removeFirst(tail.count - 3)
            }
        }
        context.fireChannelRead(data)
    }

    /// The server is stopping: a connection that has not sent a whole request head yet (a
    /// browser's preconnected socket, a client still typing) has nothing to finish, so it
    /// closes now rather than holding the shutdown until the idle timeout.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ServerStopping {
            if timer != nil { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Sent through a connection's pipeline when the server begins its graceful shutdown.
    struct ServerStopping: Sendable {}

    static func containsEndOfHead(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return true
        }
        return false
    }
}

/// A child channel that puts a `FirstRequestGuard` in front of another child channel's
/// pipeline (here Hummingbird's HTTP/1 with WebSocket upgrade).
///
/// On graceful shutdown the guard closes a connection still waiting for its first request
/// head: Hummingbird's upgrade-deciding channel waits for that head without a shutdown
/// handler, so an idle preconnected socket held the server's exit for the idle timeout.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let count: ConnectionCount
    let timeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let count = self.count
        let timeout = self.timeout
        let inner = self.inner
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(FirstRequestGuard(count: count, timeout: timeout))
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await withGracefulShutdownHandler {
            await inner.handle(value: value, logger: logger)
        } onGracefulShutdown: {
            value.channel.pipeline.fireUserInboundEventTriggered(FirstRequestGuard.ServerStopping())
        }
    }
}
