import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// Per-client token buckets for the routes that cost the server real work: adding media,
/// starting uploads and downloads, inspecting a remote stream, creating playback sessions,
/// retrying jobs. A client that empties its bucket gets `429 Too Many Requests` with
/// `Retry-After` until tokens come back; reads and the player's own traffic are never limited.
public struct RateLimits: Sendable {
    /// Requests a client may make at once.
    public var burst: Double
    /// Requests per second a client gets back.
    public var refillPerSecond: Double

    public init(burst: Double = 60, refillPerSecond: Double = 2) {
        self.burst = burst
        self.refillPerSecond = refillPerSecond
    }

    /// Whether a request is one of the expensive kind. `path` is the request's `CanonicalPath`;
    /// route names are compared without regard to case, as the router matches them.
    static func isExpensive(method: HTTPRequest.Method, path: String) -> Bool {
        guard method == .post else { return false }
        let path = path.lowercased()
        if ["/api/assets", "/api/uploads", "/api/downloads", "/api/downloads/inspect", "/api/sessions"].contains(path) { return true }
        return path.hasPrefix("/api/jobs/") && path.hasSuffix("/retry")
    }
}

/// The buckets, keyed by client address. Buckets that have refilled are forgotten, so the
/// table stays as small as the set of clients currently being limited.
final class RateLimitBuckets: Sendable {
    struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }
    let limits: RateLimits
    private let buckets = Mutex<[String: Bucket]>([:])

    init(limits: RateLimits) { self.limits = limits }

    /// Takes a token for `client`; returns nil when allowed, else seconds until one is back.
    func take(for client: String, now: ContinuousClock.Instant = .now) -> Int? {
        buckets.withLock { table in
            var bucket = table[client] ?? Bucket(tokens: limits.burst, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(limits.burst, bucket.tokens + seconds * limits.refillPerSecond)
            bucket.updated = now
            if table.count > 10_000 { table = table.filter { $0.value.tokens < limits.burst } }
            guard bucket.tokens >= 1 else {
                table[client] = bucket
                return max(1, Int(((1 - bucket.tokens) / limits.refillPerSecond).rounded(.up)))
            }
            bucket.tokens -= 1
            table[client] = bucket
            return nil
        }
    }
}

/// Applies `RateLimits` to the expensive routes, by the request's client address.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = MarqueeRequestContext
    let buckets: RateLimitBuckets

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard RateLimits.isExpensive(method: request.method, path: request.uri.path) else { return try await next(request, context) }
        if let wait = buckets.take(for: context.clientAddress) {
            throw APIError(
                .tooManyRequests, "Too many requests of this kind; try again in \(wait) s",
                headers: [.retryAfter: String(wait)])
        }
        return try await next(request, context)
    }
}
