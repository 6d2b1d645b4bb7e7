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
    /// it with any method. `HEAD` comes with `GET`, as the server answers it.
    func allowed(for path: String) -> [String] {
        let segments = path.lowercased().split(separator: "/")
        var methods = Set<String>()
        routes.withLock { routes in
            for route in routes where Self.matches(route.path.components[...], segments[...]) {
                methods.insert(route.method.rawValue)
                if route.method == .get { methods.insert(HTTPRequest.Method.head.rawValue) }
            }
        }
        return methods.sorted()
    }

    static func matches(_ pattern: ArraySlice<RouterPath.Element>, _ segments: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return segments.isEmpty }
        if first.description == "**" { return !segments.isEmpty }
        guard let segment = segments.first, first ~= segment.lowercased() else { return false }
        return matches(pattern.dropFirst(), segments.dropFirst())
    }
}
