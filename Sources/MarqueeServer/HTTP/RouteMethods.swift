import Hummingbird
import Synchronization

/// Which methods each routed path answers, so that a request with a method its path does not
/// take is told `405 Method Not Allowed` with an `Allow` header (RFC 9110 §15.5.6) instead of
/// a 404 that says the path does not exist. Filled from the router once every route is
/// registered; read by `JSONErrorMiddleware` when the router found no route.
final class RouteMethods: Sendable {
    private let routes = Mutex<[(path: RouterPath, method: HTTPRequest.Method)]>([])

    /// Records the router's routes (call after the last one is registered).
    func record(_ descriptions: [Router<MarqueeRequestContext>.RouteDescription]) {
        routes.withLock { $0 = descriptions.map { ($0.path, $0.method) } }
    }

    /// The methods routed for `path` (a canonical path), sorted; empty when no route matches
    /// it with any method. `HEAD` comes with `GET`, as the server answers it. Segments match
    /// as the router's trie matches them: a route name before a parameter (so
    /// `/api/activities/channels` is not `/api/activities/{id}`).
    func allowed(for path: String) -> [String] {
        let segments = path.lowercased().split(separator: "/").map(String.init)
        var methods = Set<String>()
        routes.withLock { routes in
            for route in Self.matching(routes, segments) {
                methods.insert(route.method.rawValue)
                if route.method == .get { methods.insert(HTTPRequest.Method.head.rawValue) }
            }
        }
        return methods.sorted()
    }

    /// The routes that `segments` resolves to, level by level: where a route name equals the
    /// segment only routes with that name stay; `**` takes the rest of the path.
    static func matching(
        _ routes: [(path: RouterPath, method: HTTPRequest.Method)], _ segments: [String]
    ) -> [(path: RouterPath, method: HTTPRequest.Method)] {
        var open = routes.filter { !$0.path.components.isEmpty || segments.isEmpty }
        var finished: [(path: RouterPath, method: HTTPRequest.Method)] = []
        for (depth, segment) in segments.enumerated() {
            let here = open.filter { depth < $0.path.components.count }
            let named = here.filter { $0.path.components[depth] == segment }
            let candidates = named.isEmpty ? here.filter { $0.path.components[depth] ~= segment } : named
            finished += candidates.filter { $0.path.components[depth].description == "**" }
            open = candidates.filter { $0.path.components[depth].description != "**" }
        }
        return finished + open.filter { $0.path.components.count == segments.count }
    }
}
