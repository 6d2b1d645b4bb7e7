/// A byte stream between two devices. The device-link protocol is the same over every
/// transport: an in-memory pair (tests), TCP, and WebSocket (browsers).
public protocol LinkTransport: Sendable {
    /// Queues bytes for the peer, in order.
    func send(_ bytes: [UInt8]) async throws
    /// The next bytes from the peer, `nil` once the stream has ended. One reader at a time.
    func receive() async throws -> [UInt8]?
    /// Ends the stream both ways; a pending `receive` returns `nil`.
    func close() async
}

/// Chunks of bytes waiting for one reader: the inbound side of every transport.
///
/// Bounded: a peer that sends more than `limit` bytes that nobody reads (while a person
/// decides on a pairing, say) ends the stream with `LinkClosed.transportAborted` instead of
/// growing memory without limit.
public actor ByteQueue {
    private var chunks: [[UInt8]] = []
    private var head = 0
    private var buffered = 0
    private var ended: (any Error)??
    private var waiter: CheckedContinuation<[UInt8]?, any Error>?
    /// The most bytes held for the reader (4 MiB by default).
    public let limit: Int

    /// An empty, open queue.
    public init(limit: Int = 4 << 20) {
        self.limit = limit
    }

    /// Hands `bytes` to a waiting reader or queues them; ignored once the queue has ended, and
    /// ends it with `transportAborted` when queuing would pass `limit`.
    public func push(_ bytes: [UInt8]) {
        guard ended == nil else { return }
        if waiter == nil, buffered + bytes.count > limit {
            chunks.removeAll()
            head = 0
            buffered = 0
            return finish(throwing: LinkClosed.transportAborted)
        }
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: bytes)
        } else {
            chunks.append(bytes)
            buffered += bytes.count
        }
    }

    /// Ends the queue; the reader gets what was queued, then `nil` (or `error`).
    public func finish(throwing error: (any Error)? = nil) {
        guard ended == nil else { return }
        ended = .some(error)
        if let waiter {
            self.waiter = nil
            if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
        }
    }

    /// The next chunk, waiting for one; nil once the queue has ended and is empty, or the
    /// error it ended with. One reader at a time.
    public func pop() async throws -> [UInt8]? {
        if head < chunks.count {
            let chunk = chunks[head]
            head += 1
            buffered -= chunk.count
            if head == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                head = 0
            }
            return chunk
        }
        if let ended {
            if let error = ended { throw error }
            return nil
        }
        return try await withCheckedThrowingContinuation { waiter = $0 }
    }
}

/// Two transports joined in memory, for tests: what one sends, the other receives.
public struct InMemoryTransport: LinkTransport {
    let inbound: ByteQueue
    let outbound: ByteQueue

    /// A connected pair: (the initiator's end, the responder's end).
    public static func pair() -> (InMemoryTransport, InMemoryTransport) {
        let a = ByteQueue()
        let b = ByteQueue()
        return (InMemoryTransport(inbound: a, outbound: b), InMemoryTransport(inbound: b, outbound: a))
    }

    /// Queues `bytes` for the other end.
    public func send(_ bytes: [UInt8]) async throws {
        await outbound.push(bytes)
    }

    /// The next bytes the other end sent.
    public func receive() async throws -> [UInt8]? {
        try await inbound.pop()
    }

    /// Ends both directions; each side reads what was queued, then nil.
    public func close() async {
        await inbound.finish()
        await outbound.finish()
    }

    /// Ends both directions as if the network dropped (the phone's app was suspended).
    public func abort() async {
        await inbound.finish(throwing: LinkClosed.transportAborted)
        await outbound.finish(throwing: LinkClosed.transportAborted)
    }
}
