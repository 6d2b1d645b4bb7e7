import Hummingbird

/// Puts every request's path in its `CanonicalPath` form before the router resolves it, so the
/// router, the origin checks, the access rules and the rate limits all decide on the same
/// text. (Hummingbird resolves the route before it runs the router's middleware, so this
/// stands in front of the router rather than among its middleware.) A path that cannot be
/// read is refused with `400 Bad Request`.
struct CanonicalPathResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: RequestContext {
    typealias Context = Inner.Context
    let inner: Inner

    func respond(to request: Request, context: Context) async throws -> Response {
        let canonical: Request
        do {
            canonical = try Self.canonical(request)
        } catch {
            return try error.response(from: request, context: context)
        }
        return try await inner.respond(to: canonical, context: context)
    }

    /// `request` with its path in canonical form (the same request when it already was).
    static func canonical(_ request: Request) throws(APIError) -> Request {
        let target = request.head.path ?? "/"
        let query = target.firstIndex(of: "?")
        let path = target[..<(query ?? target.endIndex)]
        let canonical: CanonicalPath
        do {
            canonical = try CanonicalPath(path)
        } catch {
            throw APIError(.badRequest, error.description, code: "bad-path")
        }
        guard canonical.text != path else { return request }
        var head = request.head
        head.path = canonical.text + (query.map { String(target[$0...]) } ?? "")
        return Request(head: head, body: request.body)
    }
}

/// A router whose responder is a `CanonicalPathResponder` in front of the router's own, inside
/// a `LingeringCloseResponder` (so even a refused path lets its client finish sending).
struct CanonicalRouter<Builder: HTTPResponderBuilder>: HTTPResponderBuilder where Builder.Responder.Context: RequestContext {
    let router: Builder

    func buildResponder() -> LingeringCloseResponder<CanonicalPathResponder<Builder.Responder>> {
        LingeringCloseResponder(inner: CanonicalPathResponder(inner: router.buildResponder()))
    }
}
