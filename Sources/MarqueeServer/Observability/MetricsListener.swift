import Foundation
import HTTPTypes
public import Hummingbird
public import Logging
import NIOCore
import ServiceLifecycle

/// `GET /metrics` (and `GET /livez`) for a process that serves nothing else: a `marquee worker`,
/// whose job outcomes and durations and Live Text reading are counted in `metrics`' registry
/// through swift-metrics. Prometheus's text format, as `marquee serve` answers it.
///
/// With `token` every `/metrics` request must carry `Authorization: Bearer TOKEN`; without it
/// the listener is open to whoever reaches it, which is why the worker binds it to loopback
/// unless told otherwise (and then asks for a token).
public struct MetricsListener: Sendable {
    /// The registry `/metrics` writes out.
    public let metrics: ServerMetrics
    /// The bearer token `/metrics` asks for; nil: none.
    public let token: String?

    /// A listener for `metrics`, asking for `token` when there is one.
    public init(metrics: ServerMetrics, token: String?) {
        self.metrics = metrics
        self.token = token
    }

    /// The routes, for the application and for in-memory tests.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        let (metrics, token) = (metrics, token)
        router.get("livez") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"live"}"#)))
        }
        router.get("metrics") { request, _ in
            if let token, !Self.authorizes(request.headers[.authorization], token: token) {
                return Response(
                    status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8", .wwwAuthenticate: "Bearer"],
                    body: .init(byteBuffer: ByteBuffer(string: "/metrics needs the token given with --metrics-token\n")))
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        return router
    }

    /// Whether `header` is `Bearer TOKEN` (compared in constant time, as `ServerAccess` does).
    static func authorizes(_ header: String?, token: String) -> Bool {
        guard let header, case .bearer(let given) = HeaderValues.authorization(header) else { return false }
        let (a, b) = (Array(given.utf8), Array(token.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The listener on `host:port`; `onReady` gets the port actually bound (useful with port 0).
    public func application(
        host: String, port: Int, logger: Logger, onReady: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(), configuration: .init(address: .hostname(host, port: port), serverName: "Marquee worker"),
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? port) }, logger: logger)
    }

    /// Listens on `host:port` until the calling task is cancelled (no signal handling of its own).
    public func run(host: String, port: Int, logger: Logger, onReady: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await application(host: host, port: port, logger: logger, onReady: onReady).run()
    }
}
