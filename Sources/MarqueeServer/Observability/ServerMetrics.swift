public import CoreMetrics
import Foundation
import HTTPTypes
public import Prometheus
import Synchronization

/// The numbers `/metrics` shows, in Prometheus's text format: requests by route template (never
/// the raw path, whose values are unbounded), method and status with their latency, bytes
/// served, and — read when scraped — the job queue by state and the open playback sessions.
/// Job outcomes and durations (`IngestWorker`) and APNs outcomes (`ActivityPushRelay`) are
/// counted through swift-metrics' global factory, which `marquee serve` points at the same
/// registry.
///
/// Instruments are swift-metrics types made by a `PrometheusMetricsFactory` over `registry`,
/// so a test gives each server a registry of its own.
public final class ServerMetrics: Sendable {
    /// Where every instrument of this server is kept; `exposition()` writes it out.
    public let registry: PrometheusCollectorRegistry
    /// Makes instruments in `registry` (`MetricsSystem.bootstrap` takes it in `marquee serve`).
    public let factory: PrometheusMetricsFactory

    struct RouteKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    struct RouteInstruments: Sendable {
        let requests: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
        let bytes: CoreMetrics.Counter
    }

    private let routes = Mutex<[RouteKey: RouteInstruments]>([:])
    private let sessionsGauge: CoreMetrics.Gauge
    private let jobGauges: [String: CoreMetrics.Gauge]
    private let readinessGauges: Mutex<[String: CoreMetrics.Gauge]> = Mutex([:])

    /// The route label of requests no route matched (and of those refused before routing).
    static let unmatchedRoute = "unmatched"
    /// The route template of bundle files, shared by the routed path and the event-loop path.
    static let mediaRoute = EventLoopAnswerCounts.route

    /// Metrics kept in `registry` (a fresh one by default).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        // Requests take microseconds (cached media) to minutes (uploads, event streams).
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
            .seconds(30), .seconds(60),
        ]
        factory.durationHistogramBuckets["marquee_job_duration_seconds"] = [
            .seconds(1), .seconds(5), .seconds(15), .seconds(30), .seconds(60), .seconds(120), .seconds(300), .seconds(600),
            .seconds(1800), .seconds(3600),
        ]
        self.factory = factory
        sessionsGauge = CoreMetrics.Gauge(label: "marquee_playback_sessions", factory: factory)
        var jobs: [String: CoreMetrics.Gauge] = [:]
        for state in ["queued", "running", "succeeded", "failed"] {
            jobs[state] = CoreMetrics.Gauge(label: "marquee_jobs", dimensions: [("state", state)], factory: factory)
        }
        jobGauges = jobs
    }

    /// Counts one answered request: `route` is the matched route template (nil when none matched).
    func recordRequest(route: String?, method: HTTPRequest.Method, status: Int, bytes: Int, duration: Duration?) {
        let instruments = instruments(for: RouteKey(route: Self.routeLabel(route), method: method.rawValue, status: status))
        instruments.requests.increment()
        if bytes > 0 { instruments.bytes.increment(by: bytes) }
        if let duration {
            let (seconds, attoseconds) = duration.components
            instruments.duration.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
    }

    /// The label for a matched route: Hummingbird's template, or `unmatched`.
    static func routeLabel(_ route: String?) -> String {
        guard let route, !route.isEmpty, route != "NotFound" else { return unmatchedRoute }
        return route
    }

    private func instruments(for key: RouteKey) -> RouteInstruments {
        if let known = routes.withLock({ $0[key] }) { return known }
        let dimensions = [("route", key.route), ("method", key.method), ("status", String(key.status))]
        let made = RouteInstruments(
            requests: CoreMetrics.Counter(label: "marquee_http_requests_total", dimensions: dimensions, factory: factory),
            duration: CoreMetrics.Timer(label: "marquee_http_request_duration_seconds", dimensions: dimensions, factory: factory),
            bytes: CoreMetrics.Counter(label: "marquee_http_response_bytes_total", dimensions: dimensions, factory: factory))
        return routes.withLock { table in
            if let known = table[key] { return known }
            table[key] = made
            return made
        }
    }

    /// Folds in what the event-loop media path answered since the last scrape (it counts with
    /// atomics only); their latency is not measured (it answers in microseconds, from memory).
    func collect(_ counts: EventLoopAnswerCounts) {
        for (method, status, requests, bytes) in counts.take() where requests > 0 {
            let instruments = instruments(for: RouteKey(route: Self.mediaRoute, method: method, status: status))
            instruments.requests.increment(by: requests)
            if bytes > 0 { instruments.bytes.increment(by: bytes) }
        }
    }

    /// Sets the values read at scrape time.
    func update(sessions: Int, jobs: [String: Int]?, readiness: [ReadinessCheck.Result]) {
        sessionsGauge.record(sessions)
        if let jobs {
            for (state, gauge) in jobGauges { gauge.record(jobs[state] ?? 0) }
        }
        for result in readiness {
            let gauge = readinessGauges.withLock { table in
                if let gauge = table[result.name] { return gauge }
                let gauge = CoreMetrics.Gauge(label: "marquee_ready", dimensions: [("check", result.name)], factory: factory)
                table[result.name] = gauge
                return gauge
            }
            gauge.record(result.ok ? 1 : 0)
        }
    }

    /// Everything in the registry, in Prometheus's text exposition format.
    public func exposition() -> String {
        registry.emitToString()
    }
}
