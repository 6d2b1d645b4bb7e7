import CoreMetrics
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import MarqueeServer

/// `marquee worker --metrics-port`: a listener with `/metrics` (the registry the worker's
/// swift-metrics counts into) and `/livez`, open on loopback, or asking for a bearer token.
@Suite("The metrics listener of a process that serves nothing else")
struct MetricsListenerTests {
    func listener(token: String?) -> (MetricsListener, ServerMetrics) {
        let metrics = ServerMetrics()
        // What a worker counts through swift-metrics' global factory, which it points at this registry.
        CoreMetrics.Counter(label: "marquee_live_text_frames_read_total", dimensions: [("purpose", "index")], factory: metrics.factory)
            .increment(by: 3)
        CoreMetrics.Counter(label: "marquee_job_outcomes_total", dimensions: [("outcome", "succeeded")], factory: metrics.factory).increment()
        return (MetricsListener(metrics: metrics, token: token), metrics)
    }

    @Test("Without a token /metrics is Prometheus's text format of the registry, over a real socket")
    func openOnLoopback() async throws {
        let (listener, _) = listener(token: nil)
        try await listener.application(host: "127.0.0.1", port: 0, logger: Logger(label: "test")).test(.live) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                let text = String(buffer: response.body)
                #expect(text.contains(#"marquee_live_text_frames_read_total{purpose="index"} 3"#), "\(text)")
                #expect(text.contains(#"marquee_job_outcomes_total{outcome="succeeded"} 1"#), "\(text)")
            }
            try await client.execute(uri: "/livez", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body) == #"{"status":"live"}"#)
            }
            try await client.execute(uri: "/api/assets", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("With a token, /metrics answers only the request that presents it")
    func tokenRequired() async throws {
        let (listener, _) = listener(token: "scrape-secret")
        try await listener.application(host: "127.0.0.1", port: 0, logger: Logger(label: "test")).test(.router) { client in
            for header in [nil, "Bearer scrape-secre", "Bearer scrape-secret-2", "Basic c2NyYXBlLXNlY3JldA=="] {
                let headers: HTTPFields = header.map { [.authorization: $0] } ?? [:]
                try await client.execute(uri: "/metrics", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized, "\(header ?? "no header")")
                    #expect(!String(buffer: response.body).contains("marquee_"))
                }
            }
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer scrape-secret"]) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("marquee_live_text_frames_read_total"))
            }
        }
    }
}
