import Foundation
import Hummingbird
import Library
import Logging

/// `/media/{asset}/…` (HLS bundles, posters, trick-play images) and the web pages and their
/// ES modules. Paths are resolved through `LibraryLocation.resolve`, which refuses any that
/// leave the asset's folder; web resources are confined to the web root the same way.
struct FileRoutes: Sendable {
    let library: MediaLibrary
    let webRoot: URL
    let responder: MediaFileResponder
    /// The web app's pages.
    let pages: WebPages

    func register(on router: Router<MarqueeRequestContext>) {
        router.get("media/{asset}/**") { request, context in try await media(request, context) }
        router.head("media/{asset}/**") { request, context in try await media(request, context) }
        router.get("/") { request, context in
            try await page("index.html", request: request, context: context)
        }
        router.get("watch/{asset}") { request, context in
            try await page("player.html", request: request, context: context)
        }
        router.get("ui/**") { request, context -> Response in
            let parts = context.parameters.getCatchAll()
            guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0 != ".." && $0 != "." && !$0.contains("\\") }) else {
                throw APIError(.notFound, "No such file")
            }
            let relative = parts.joined(separator: "/")
            let webRoot = webRoot
            return try await responder.respond(
                key: "ui/" + relative, request: request, context: context,
                kind: WebResourceKind.forExtension((String(parts.last!) as NSString).pathExtension)
            ) { parts.reduce(webRoot) { $0.appendingPathComponent(String($1)) } }
        }
        // Browsers ask for /favicon.ico on pages that name no icon (and some ask anyway).
        router.get("favicon.ico") { request, context -> Response in
            let webRoot = webRoot
            return try await responder.respond(
                key: "ui/favicon.png", request: request, context: context, kind: WebResourceKind.forExtension("png")
            ) { webRoot.appendingPathComponent("favicon.png") }
        }
        router.get("api/openapi.json") { request, context in
            let webRoot = webRoot
            return try await responder.respond(
                key: "ui/openapi.json", request: request, context: context,
                kind: ServedFileKind(contentType: "application/json", cacheControl: "no-cache")
            ) { webRoot.appendingPathComponent("openapi.json") }
        }
    }

    /// A file from an asset's bundle; the path is checked (on the thread pool) not to leave it.
    func media(_ request: Request, _ context: MarqueeRequestContext) async throws -> Response {
        let asset = try context.parameters.require("asset")
        let raw = context.parameters.getCatchAll().joined(separator: "/")
        let rest = raw.contains("%") ? raw.removingPercentEncoding ?? raw : raw
        let location = library.location
        // An asset with interstitial events serves its playlists with the events written in.
        // While the database is down the playlist goes out as packaged (without the events),
        // so media that is ready keeps playing.
        let decorated: String?
        do {
            decorated = try await InterstitialPlaylists(library: library).playlist(assetID: asset, path: rest)
        } catch let error where APIError.outage(error) != nil {
            context.logger.warning("served \(rest) of \(asset) without its interstitials: \(error)")
            decorated = nil
        }
        if let text = decorated {
            return try InterstitialPlaylists.response(text, request: request)
        }
        if !library.media.isLocal {
            // A hot file this node holds in memory is answered like a local one (and then on the
            // event loop); the rest is streamed from the store.
            if let copy = await library.media.memoryCopy(rest, of: asset) {
                return try await responder.respond(
                    key: "media/\(asset)/\(rest)", memoryCopy: copy, request: request, context: context,
                    kind: ServedFileKind.forExtension((rest as NSString).pathExtension))
            }
            return try await ObjectMediaResponder(media: library.media).respond(assetID: asset, path: rest, request: request)
        }
        return try await responder.respond(
            key: "media/\(asset)/\(rest)", request: request, context: context,
            kind: ServedFileKind.forExtension((rest as NSString).pathExtension)
        ) { location.resolve(rest, inBundleOf: asset) }
    }

    func page(_ name: String, request: Request, context: MarqueeRequestContext) async throws -> Response {
        try await pages.page(name, request: request, context: context)
    }
}
