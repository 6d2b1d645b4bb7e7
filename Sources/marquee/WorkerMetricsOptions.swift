import ArgumentParser
import CoreMetrics
import Foundation
import Logging
import MarqueeServer

/// `marquee worker --metrics-port`: the worker's own `/metrics` (job outcomes and durations,
/// frames read for the Live Text index), in the same registry and format as `marquee serve`'s.
/// Off unless a port is given; on loopback unless told otherwise, and then only with a token.
struct WorkerMetricsOptions: ParsableArguments {
    @Option(
        name: .customLong("metrics-port"),
        help: "Serve Prometheus metrics at /metrics on this port (0 picks a free one; the worker prints the address). Off by default.")
    var port: Int?

    @Option(name: .customLong("metrics-host"), help: "The address --metrics-port listens on. Any address but loopback needs --metrics-token.")
    var host = "127.0.0.1"

    @Option(name: .customLong("metrics-token"), help: "A bearer token that /metrics asks for (also MARQUEE_METRICS_TOKEN).")
    var token: String?

    /// The token from the option or the environment; nil when neither gives one.
    var effectiveToken: String? {
        (token ?? ProcessInfo.processInfo.environment["MARQUEE_METRICS_TOKEN"]).flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        guard let port else { return }
        guard (0...65_535).contains(port) else { throw ValidationError("--metrics-port must be between 0 and 65535") }
        guard AccessMode.isLoopback(host) || effectiveToken != nil else {
            throw ValidationError(
                "--metrics-host \(host) is not a loopback address: give --metrics-token (or MARQUEE_METRICS_TOKEN) so that only your Prometheus reads /metrics"
            )
        }
    }

    /// Points swift-metrics at a registry of this process's, before anything counts; nil without --metrics-port.
    func bootstrap() -> ServerMetrics? {
        guard port != nil else { return nil }
        let metrics = ServerMetrics()
        MetricsSystem.bootstrap(metrics.factory)
        return metrics
    }

    /// Starts listening (until the returned task is cancelled); returns the task and the URL of `/metrics`.
    func listen(_ metrics: ServerMetrics) async throws -> (Task<Void, any Error>, String) {
        var logger = Logger(label: "marquee.worker.metrics")
        logger.logLevel = .warning
        let (bound, reported) = AsyncStream.makeStream(of: Int.self)
        let (listener, host, requested) = (MetricsListener(metrics: metrics, token: effectiveToken), host, port ?? 0)
        let running = Task {
            defer { reported.finish() }
            try await listener.run(host: host, port: requested, logger: logger) { reported.yield($0) }
        }
        var ports = bound.makeAsyncIterator()
        guard let port = await ports.next() else {
            let failure = await running.result
            throw CommandFailure(.unavailable, "could not serve metrics on \(host):\(self.port ?? 0): \(failure)")
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        return (running, "http://\(shown):\(port)/metrics")
    }
}
