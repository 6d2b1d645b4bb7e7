import Hummingbird

/// Answers `/ui/v/{version}/…` as `/ui/…`: the router, the access rules and the file routes see
/// the plain path (so a rule about `/ui/js/signin.js` holds under every version), and when
/// `{version}` is the web root's current one (`WebRootVersion`) a good answer may be cached for
/// a year without being asked about again (`Cache-Control: immutable`). Under any other
/// version (a page opened before an upgrade, or another node's build) the file is the current
/// one, revalidated as usual.
struct VersionedWebPaths<Inner: HTTPResponder>: HTTPResponder {
    typealias Context = Inner.Context
    let inner: Inner
    let version: WebRootVersion

    /// The prefix that carries a version.
    static var prefix: String { "/ui/v/" }
    /// How a file asked for under the current version is cached.
    static var foreverCaching: String { "public, max-age=31536000, immutable" }

    func respond(to request: Request, context: Context) async throws -> Response {
        guard let target = request.head.path, let (asked, plain) = Self.split(target) else {
            return try await inner.respond(to: request, context: context)
        }
        var head = request.head
        head.path = plain
        var response = try await inner.respond(to: Request(head: head, body: request.body), context: context)
        if [.ok, .partialContent, .notModified].contains(response.status), let current = try? await version.current(), asked == current {
            response.headers[.cacheControl] = Self.foreverCaching
        }
        return response
    }

    /// The version a request target names and the target without it (`/ui/v/abc/js/x.js?q` →
    /// `abc`, `/ui/js/x.js?q`); nil for targets without a version or without a file after it.
    static func split(_ target: String) -> (version: Substring, plain: String)? {
        guard target.hasPrefix(prefix) else { return nil }
        let rest = target.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let version = rest[..<slash]
        let file = rest[rest.index(after: slash)...]
        guard !version.isEmpty, !file.isEmpty, !file.hasPrefix("?") else { return nil }
        return (version, "/ui/" + file)
    }
}

/// A router whose requests pass through `VersionedWebPaths` first.
struct VersionedWebRouter<Builder: HTTPResponderBuilder>: HTTPResponderBuilder {
    let router: Builder
    let version: WebRootVersion

    func buildResponder() -> VersionedWebPaths<Builder.Responder> {
        VersionedWebPaths(inner: router.buildResponder(), version: version)
    }
}
