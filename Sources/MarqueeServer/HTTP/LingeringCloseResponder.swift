import Foundation
import Hummingbird
import NIOCore

/// Reads, and throws away, what a client is still sending when its request was answered before
/// its body was read — for a request that asked to close the connection afterwards.
///
/// Hummingbird reads the rest of an unread body itself before the next request on a kept-alive
/// connection, but on `Connection: close` it closes at once. Closing a socket with unread bytes
/// makes the kernel send a reset, and a client still sending (Python's `urllib` always asks to
/// close) gets `Broken pipe` instead of the answer — a refused upload (`507` disk full, `404`
/// unknown upload, `401`) then looks like a network failure. This is nginx's *lingering close*:
/// read on for a bounded time and size, then close.
struct LingeringCloseResponder<Inner: HTTPResponder>: HTTPResponder {
    typealias Context = Inner.Context
    let inner: Inner
    /// The most that is read after the answer is ready.
    var limit = 64 << 20
    /// The longest it is read for.
    var patience: Duration = .seconds(10)

    func respond(to request: Request, context: Context) async throws -> Response {
        guard Self.closesWithBody(request.headers) else { return try await inner.respond(to: request, context: context) }
        let tap = BodyTap(request.body)
        var tapped = request
        tapped.body = RequestBody(asyncSequence: tap)
        let answer: Result<Response, any Error>
        do {
            answer = .success(try await inner.respond(to: tapped, context: context))
        } catch {
            answer = .failure(error)
        }
        await tap.drain(upTo: limit, within: patience)
        return try answer.get()
    }

    /// Whether the request asks to close the connection after its answer and sends a body.
    static func closesWithBody(_ headers: HTTPFields) -> Bool {
        guard let connection = headers[.connection],
            connection.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" })
        else { return false }
        if headers[.transferEncoding] != nil { return true }
        return headers[.contentLength].flatMap { Int($0) }.map { $0 > 0 } ?? false
    }
}

/// A request body that remembers where its reader stopped, so what is left can be drained.
///
/// `@unchecked Sendable`: the handler reads it first and the responder drains it only after the
/// handler has returned, so the iterator is never used by two tasks at once.
final class BodyTap: AsyncSequence, @unchecked Sendable {
    typealias Element = ByteBuffer
    private let body: RequestBody
    private var iterator: RequestBody.AsyncIterator?
    private var finished = false

    init(_ body: RequestBody) {
        self.body = body
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let tap: BodyTap
        mutating func next() async throws -> ByteBuffer? { try await tap.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(tap: self) }

    private func next() async throws -> ByteBuffer? {
        if finished { return nil }
        if iterator == nil { iterator = body.makeAsyncIterator() }
        guard let buffer = try await iterator?.next() else {
            finished = true
            return nil
        }
        return buffer
    }

    /// Reads what is left of the body, until its end, `limit` bytes, `patience`, or an error.
    func drain(upTo limit: Int, within patience: Duration) async {
        guard !finished else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var read = 0
                while read < limit, !Task.isCancelled, let buffer = try? await self.next() {
                    read += buffer.readableBytes
                }
            }
            group.addTask { try? await Task.sleep(for: patience) }
            await group.next()
            group.cancelAll()
        }
    }
}
