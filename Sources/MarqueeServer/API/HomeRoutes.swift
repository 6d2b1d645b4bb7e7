import Foundation
import Hummingbird
import Library

/// `GET /api/home`: the signed-in viewer's home screen rows (Continue watching, Next up,
/// Recently added), decided in Swift (`HomeRows`); the library page only renders them.
struct HomeRoutes: Sendable {
    let library: MediaLibrary

    func register(on router: Router<MarqueeRequestContext>) {
        router.group("api").get("home", use: home)
    }

    @Sendable func home(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        // A guest watching together has no history of their own: only what was added lately.
        let rows = try await library.home(viewer: context.viewerKey ?? "")
        var response = try context.responseEncoder.encode(
            try await HomeResponse(rows, library: library, viewer: context.viewerKey), from: request, context: context)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

/// The body of `GET /api/home`: each row's items as library cards, with this viewer's own progress.
struct HomeResponse: Encodable {
    /// A Continue watching card: the item, where this viewer stopped and how much is left.
    struct Progressed: Encodable {
        var asset: AssetResource
        var position: Double
        var duration: Double?
        var fraction: Double?
        var remaining: Double?
        var updatedAt: Date
    }

    /// A Next up card: the episode to watch next and the one it follows.
    struct Next: Encodable {
        var asset: AssetResource
        /// The ID of the episode this viewer watched before it.
        var afterID: String
    }

    var continueWatching: [Progressed]
    var nextUp: [Next]
    var recentlyAdded: [AssetResource]

    init(_ rows: HomeRows, library: MediaLibrary, viewer: String?) async throws {
        let watching = try await AssetResource.make(rows.continueWatching.map(\.shown), library: library, viewer: viewer)
        continueWatching = zip(watching, rows.continueWatching).map { resource, entry in
            let progress = entry.progress
            return Progressed(
                asset: resource.withPlayback(progress), position: progress.position, duration: progress.duration ?? resource.duration,
                fraction: progress.fraction, remaining: progress.remaining, updatedAt: progress.updatedAt)
        }
        let next = try await AssetResource.make(rows.nextUp.map(\.shown), library: library, viewer: viewer)
        nextUp = zip(next, rows.nextUp).map { resource, entry in
            Next(asset: resource.withPlayback(entry.progress), afterID: entry.after.asset.id)
        }
        recentlyAdded = try await AssetResource.make(rows.recentlyAdded, library: library, viewer: viewer)
    }
}

extension AssetResource {
    /// This resource with the playback summary taken from one viewer's progress (none when
    /// they have not started it), not the shared position.
    func withPlayback(_ progress: ViewingProgress?) -> AssetResource {
        var copy = self
        copy.playback = progress.map { progress in
            let position = PlaybackPosition(assetID: progress.assetID, position: progress.position, duration: progress.duration)
            return PlaybackSummary(
                position: progress.position, duration: progress.duration ?? duration, fraction: progress.fraction,
                resumeTime: progress.finished ? nil : position.resumeTime, updatedAt: progress.updatedAt)
        }
        return copy
    }
}
