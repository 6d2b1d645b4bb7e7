import Foundation
import Hummingbird
import Library
import NIOCore
import ServiceLifecycle

/// `GET /api/events`: the library's changes pushed to pages as Server-Sent Events, so cards
/// appear, update their packaging progress and disappear without reloading or polling.
///
/// `event: asset` carries the asset as `GET /api/assets/{id}` shows it; `event: removed`
/// carries `{"id": …}` when an asset is deleted. A comment line every 5 seconds keeps
/// proxies from closing the stream and tells the server when the page has gone. A page that
/// reconnects (EventSource does so by itself) should reload the list: changes made while it
/// was away are not replayed.
struct LibraryEvents: Sendable {
    let library: MediaLibrary
    var heartbeat: Duration = .seconds(5)

    enum Event: Sendable {
        case change(LibraryChange)
        case heartbeat
    }

    func register(on router: Router<MarqueeRequestContext>) {
        router.get("api/events") { _, context -> Response in
            let encoder = context.responseEncoder
            let changes = library.changes.subscribe()
            let library = library
            let heartbeat = heartbeat
            // The body is written after the route returns: keep this request's view of server paths.
            let revealed = ServerPathVisibility.revealed
            let body = ResponseBody { writer in
              try await ServerPathVisibility.$revealed.withValue(revealed) {
                let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1024))
                let forward = Task {
                    for await change in changes { continuation.yield(.change(change)) }
                    continuation.finish()
                }
                let ticks = Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: heartbeat)
                        continuation.yield(.heartbeat)
                    }
                }
                defer {
                    forward.cancel()
                    ticks.cancel()
                    continuation.finish()
                }
                try await writer.write(ByteBuffer(string: "retry: 2000\n: connected\n\n"))
                // The stream never ends by itself: end it when the server shuts down (the page
                // reconnects to the next one), or it would hold the shutdown up.
                try await withGracefulShutdownHandler {
                    for await event in events {
                        let text: String
                        switch event {
                        case .heartbeat:
                            text = ": keep-alive\n\n"
                        case .change(.assetRemoved(let id)):
                            text = Self.frame("removed", json: try encoder.encode(["id": id]))
                        case .change(.assetChanged(let id)):
                            if let asset = try await library.asset(id: id) {
                                text = Self.frame("asset", json: try encoder.encode(try await AssetResource.make(asset, library: library)))
                            } else {
                                text = Self.frame("removed", json: try encoder.encode(["id": id]))
                            }
                        }
                        try await writer.write(ByteBuffer(string: text))
                    }
                } onGracefulShutdown: {
                    continuation.finish()
                }
                try await writer.finish(nil)
              }
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store", HTTPFields.Element.Name("X-Accel-Buffering")!: "no"],
                body: body)
        }
    }

    /// One SSE frame; the JSON has no newlines (the encoder does not pretty-print).
    static func frame(_ name: String, json: Data) -> String {
        "event: \(name)\ndata: \(String(decoding: json, as: UTF8.self))\n\n"
    }
}
