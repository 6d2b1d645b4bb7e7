import Foundation
import Hummingbird
import Library
import NIOPosix
import Synchronization

/// The web app's HTML pages, served with every `/ui/` address in them moved under the web
/// root's current version (`/ui/v/{version}/…`, see `VersionedWebPaths`), so that the scripts
/// and stylesheets a page names, and the modules those import by relative address, come from
/// the browser's cache on every later visit. Pages themselves are revalidated on every load
/// (their ETag is the version), so a new build's page names the new build's files.
final class WebPages: Sendable {
    let root: URL
    let version: WebRootVersion
    private let responder: MediaFileResponder
    private let rendered = Mutex<[String: (version: String, page: MediaMemoryCopy)]>([:])

    init(root: URL, version: WebRootVersion, responder: MediaFileResponder = MediaFileResponder()) {
        self.root = root
        self.version = version
        self.responder = responder
    }

    /// Answers `request` with the page `name` (a file in the web root), rewritten for the
    /// current version; 404 when there is no such page.
    func page(_ name: String, request: Request, context: MarqueeRequestContext) async throws -> Response {
        let version = try await version.current()
        let page: MediaMemoryCopy
        if let known = rendered.withLock({ $0[name] }), known.version == version {
            page = known.page
        } else {
            let file = root.appendingPathComponent(name)
            guard let text = try await NIOThreadPool.singleton.runIfActive({ try? String(contentsOf: file, encoding: .utf8) }) else {
                throw APIError(.notFound, "No such page")
            }
            page = MediaMemoryCopy(data: Data(Self.rewrite(text, version: version).utf8), eTag: "\"\(version)\"")
            rendered.withLock { $0[name] = (version, page) }
        }
        return try await responder.respond(
            key: "page/" + name, memoryCopy: page, request: request, context: context, kind: WebResourceKind.forExtension("html"))
    }

    /// `html` with each quoted address that starts `/ui/` moved under `/ui/v/{version}/`.
    static func rewrite(_ html: String, version: String) -> String {
        html.replacingOccurrences(of: "\"/ui/", with: "\"/ui/v/\(version)/")
            .replacingOccurrences(of: "'/ui/", with: "'/ui/v/\(version)/")
    }
}
