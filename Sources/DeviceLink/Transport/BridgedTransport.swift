/// A transport whose bytes another component carries: a WebSocket handler (browsers) pushes
/// what arrives into `inbound` and writes what `outbound` yields. The link protocol on top is
/// the same as over TCP.
public struct BridgedTransport: LinkTransport {
    /// Where the carrier pushes what the peer sent.
    public let inbound: ByteQueue
    /// What to send to the peer, in order; finishes when the link closes.
    public let outbound: AsyncStream<[UInt8]>
    private let continuation: AsyncStream<[UInt8]>.Continuation

    /// An open transport with nothing queued.
    public init() {
        inbound = ByteQueue()
        (outbound, continuation) = AsyncStream.makeStream(of: [UInt8].self)
    }

    /// Yields `bytes` on `outbound`; throws `transportAborted` once the carrier stopped reading.
    public func send(_ bytes: [UInt8]) async throws {
        if case .terminated = continuation.yield(bytes) { throw LinkClosed.transportAborted }
    }

    /// The next bytes the carrier pushed into `inbound`.
    public func receive() async throws -> [UInt8]? {
        try await inbound.pop()
    }

    /// Finishes `outbound` and `inbound`.
    public func close() async {
        continuation.finish()
        await inbound.finish()
    }
}
