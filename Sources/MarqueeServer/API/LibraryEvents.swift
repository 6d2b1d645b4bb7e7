import EventFeed
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

    func register(on router: Router<MarqueeRequestContext>) {
        router.get("api/events") { _, context -> Response in
            let encoder = context.responseEncoder
            let library = library
            let viewer = context.viewerKey
            // The body is written after the route returns: keep this request's view of server paths.
            let revealed = ServerPathVisibility.revealed
            return EventStream<LibraryChange>(
                retry: .seconds(2), heartbeat: heartbeat,
                subscribe: { library.changes.subscribe() },
                opening: { ": connected\n\n" },
                render: { change in
                    try await ServerPathVisibility.$revealed.withValue(revealed) {
                        switch change {
                        case .assetRemoved(let id):
                            return try EventStream<LibraryChange>.frame("removed", ["id": id], encoder: encoder)
                        case .assetChanged(let id):
                            guard let asset = try await library.asset(id: id) else {
                                return try EventStream<LibraryChange>.frame("removed", ["id": id], encoder: encoder)
                            }
                            return try EventStream<LibraryChange>.frame(
                                "asset", try await AssetResource.make(asset, library: library, viewer: viewer), encoder: encoder)
                        }
                    }
                }
            ).response
        }
    }

    /// One SSE frame; the JSON has no newlines (the encoder does not pretty-print).
    static func frame(_ name: String, json: Data) -> String {
        EventStream<LibraryChange>.frame(name, json: json)
    }
}
