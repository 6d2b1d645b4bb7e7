import Hummingbird

/// Rewrites every request's path to its `CanonicalPath` before anything else reads it, so the
/// origin checks, the access rules, the rate limits and the router decide on the same text.
/// A path that cannot be read is refused with `400 Bad Request`.
struct CanonicalPathMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await next(try Self.canonical(request), context)
    }

    /// `request` with its path in canonical form (the same request when it already was).
    static func canonical(_ request: Request) throws -> Request {
        let target = request.head.path ?? "/"
        let query = target.firstIndex(of: "?")
        let path = target[..<(query ?? target.endIndex)]
        let canonical: CanonicalPath
        do {
            canonical = try CanonicalPath(path)
        } catch {
            throw APIError(.badRequest, error.description)
        }
        guard canonical.text != path else { return request }
        var head = request.head
        head.path = canonical.text + (query.map { String(target[$0...]) } ?? "")
        return Request(head: head, body: request.body)
    }
}
