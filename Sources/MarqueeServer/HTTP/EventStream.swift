import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle

/// A `text/event-stream` (Server-Sent Events) response, the one way the server pushes changes
/// to pages: an optional `retry:` hint and opening frames (a snapshot), then one frame per
/// event, with a comment every `heartbeat` so proxies keep the connection open and the server
/// learns when the page has gone. Events are buffered up to `buffer` (oldest dropped) so a slow
/// page never holds up the source, and the stream ends when the server shuts down, so an open
/// page never delays a restart; EventSource reconnects by itself.
struct EventStream<Event: Sendable>: Sendable {
    /// How long EventSource waits before reconnecting, sent as `retry:`.
    var retry: Duration?
    var heartbeat: Duration = .seconds(15)
    var buffer = 1024
    /// Subscribes to the source. Called before `opening`, so nothing that happens in between is lost.
    var subscribe: @Sendable () async -> AsyncStream<Event>
    /// Frames written first (a snapshot of the current state), after subscribing.
    var opening: @Sendable () async throws -> String = { "" }
    /// The frames for one event, or `nil` to send nothing for it.
    var render: @Sendable (Event) async throws -> String?

    /// One SSE frame named `name` whose data is `value` as compact JSON (which has no newlines).
    static func frame(_ name: String, _ value: some Encodable, encoder: JSONEncoder) throws -> String {
        frame(name, json: try encoder.encode(value))
    }

    static func frame(_ name: String, json: Data) -> String {
        "event: \(name)\ndata: \(String(decoding: json, as: UTF8.self))\n\n"
    }

    static var keepAlive: String { ": keep-alive\n\n" }

    private enum Item: Sendable { case event(Event), heartbeat }

    var response: Response {
        let stream = self
        let body = ResponseBody { writer in
            let (items, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingNewest(stream.buffer))
            let source = await stream.subscribe()
            let forward = Task {
                for await event in source { continuation.yield(.event(event)) }
                continuation.finish()
            }
            let ticks = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: stream.heartbeat)
                    continuation.yield(.heartbeat)
                }
            }
            defer {
                forward.cancel()
                ticks.cancel()
                continuation.finish()
            }
            var head = stream.retry.map { "retry: \(Int($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000))\n" } ?? ""
            head += try await stream.opening()
            if !head.isEmpty { try await writer.write(ByteBuffer(string: head)) }
            try await withGracefulShutdownHandler {
                for await item in items {
                    let text: String?
                    switch item {
                    case .heartbeat: text = Self.keepAlive
                    case .event(let event): text = try await stream.render(event)
                    }
                    if let text, !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
                }
            } onGracefulShutdown: {
                continuation.finish()
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                HTTPFields.Element.Name("X-Accel-Buffering")!: "no",
            ],
            body: body)
    }
}
