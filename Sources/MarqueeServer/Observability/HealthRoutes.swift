import Foundation
import Hummingbird
import Library
import NIOCore

/// `/livez`, `/readyz`, `/api/health` and `/metrics`: what a load balancer, an orchestrator
/// and Prometheus ask a node.
///
/// - `/livez`: the process answers HTTP; no I/O. Restart the node when it fails.
/// - `/readyz`: the database, the job queue and (with media in a bucket) the bucket each
///   answered within 1 s: `200` with every check, or `503` naming the failed ones in a
///   sentence. Take the node out of the balancer while it fails.
/// - `/api/health`: liveness, as before (`ok`), for clients that already ask it.
/// - `/metrics`: Prometheus's text format (`ServerMetrics`); who may read it is
///   `AccessRules`' and `AccessMiddleware`'s (the owner, or `--metrics-token`).
struct HealthRoutes: Sendable {
    let library: MediaLibrary
    let sessions: PlaybackSessions
    let metrics: ServerMetrics
    let eventLoopAnswers: EventLoopAnswerCounts
    /// How long each readiness check may take.
    let limit: Duration

    /// The body of `/readyz`.
    struct Readiness: Codable {
        /// `ready` or `unavailable`.
        var status: String
        /// Which checks failed, as a sentence (absent when ready).
        var message: String?
        var checks: [ReadinessCheck.Result]
    }

    func register(on router: Router<MarqueeRequestContext>) {
        router.get("api/health") { _, _ in "ok" }
        router.get("livez") { _, _ in Self.json(.ok, ["status": "live"]) }
        router.get("readyz") { _, context in try await readiness(context) }
        router.get("metrics") { _, context in await scrape(context) }
    }

    func readiness(_ context: MarqueeRequestContext) async throws -> Response {
        let (results, _) = await ReadinessCheck(library: library, limit: limit).run(logger: context.logger)
        let failed = results.filter { !$0.ok }
        let body = Readiness(
            status: failed.isEmpty ? "ready" : "unavailable",
            message: failed.isEmpty ? nil : "Not ready: " + failed.compactMap(\.message).joined(separator: "; "),
            checks: results)
        return Self.json(failed.isEmpty ? .ok : .serviceUnavailable, body)
    }

    func scrape(_ context: MarqueeRequestContext) async -> Response {
        let (results, jobs) = await ReadinessCheck(library: library, limit: limit).run(logger: context.logger)
        metrics.collect(eventLoopAnswers)
        metrics.update(sessions: await sessions.count, jobs: jobs, readiness: results)
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
    }

    static func json(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
