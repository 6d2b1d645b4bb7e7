public import NIOCore
public import NIOPosix

/// The device-link byte stream over TCP (SwiftNIO). Reads are pushed into a `ByteQueue`;
/// writes go out in order through the channel's async writer.
public struct TCPTransport: LinkTransport {
    private let inbound: ByteQueue
    private let outbound: AsyncStream<[UInt8]>.Continuation
    private let runner: Task<Void, Never>
    /// The peer's address as text, for logs.
    public let remoteAddress: String

    init(channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) {
        let inbound = ByteQueue()
        let (stream, outbound) = AsyncStream.makeStream(of: [UInt8].self)
        self.inbound = inbound
        self.outbound = outbound
        remoteAddress = channel.channel.remoteAddress?.description ?? "?"
        runner = Task {
            do {
                try await channel.executeThenClose { reads, writes in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await bytes in stream { try await writes.write(ByteBuffer(bytes: bytes)) }
                        }
                        group.addTask {
                            for try await buffer in reads { await inbound.push(Array(buffer.readableBytesView)) }
                        }
                        _ = try await group.next()
                        group.cancelAll()
                    }
                }
            } catch {}
            await inbound.finish()
        }
    }

    /// Opens a TCP connection to `host`:`port`.
    public static func connect(
        host: String, port: Int, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        timeout: TimeAmount = .seconds(5)
    ) async throws -> TCPTransport {
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return TCPTransport(channel: channel)
    }

    /// Queues `bytes` for the socket; throws `transportAborted` once the connection has gone.
    public func send(_ bytes: [UInt8]) async throws {
        if case .terminated = outbound.yield(bytes) { throw LinkClosed.transportAborted }
    }

    /// The next bytes read from the socket; nil once the peer closed it.
    public func receive() async throws -> [UInt8]? {
        try await inbound.pop()
    }

    /// Closes the connection after what was queued is written.
    public func close() async {
        outbound.finish()
        await inbound.finish()
    }

    /// Drops the connection at once, as a suspended app or a lost network would.
    public func abort() async {
        runner.cancel()
        await inbound.finish(throwing: LinkClosed.transportAborted)
    }
}

/// A TCP listener for device links: every accepted connection becomes a `TCPTransport`.
public struct TCPLinkListener: Sendable {
    /// The port actually bound (useful with port 0).
    public let port: Int
    /// Accepted connections, until `close()`.
    public let transports: AsyncStream<TCPTransport>
    private let runner: Task<Void, Never>

    /// Binds `host`:`port` and starts accepting; ready as soon as this returns, so the service
    /// can be advertised after it.
    public static func bind(host: String, port: Int, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> TCPLinkListener {
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        let bound = server.channel.localAddress?.port ?? port
        let (stream, continuation) = AsyncStream.makeStream(of: TCPTransport.self)
        let runner = Task {
            do {
                try await server.executeThenClose { inbound in
                    for try await child in inbound { continuation.yield(TCPTransport(channel: child)) }
                }
            } catch {}
            continuation.finish()
        }
        return TCPLinkListener(port: bound, transports: stream, runner: runner)
    }

    /// Stops accepting; `transports` finishes. Connections already accepted stay open.
    public func close() {
        runner.cancel()
    }
}
