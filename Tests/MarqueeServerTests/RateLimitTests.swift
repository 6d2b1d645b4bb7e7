import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MarqueeServer

/// Expensive routes are limited per client; reads are not.
@Suite("Rate limits")
struct RateLimitTests {
    @Test func aBucketEmptiesAndRefills() {
        let buckets = RateLimitBuckets(limits: RateLimits(burst: 3, refillPerSecond: 1))
        let start = ContinuousClock.now
        for _ in 0..<3 { #expect(buckets.take(for: "10.0.0.7", now: start) == nil) }
        #expect(buckets.take(for: "10.0.0.7", now: start) == 1)
        #expect(buckets.take(for: "192.168.1.9", now: start) == nil)  // another client has its own bucket
        #expect(buckets.take(for: "10.0.0.7", now: start + .milliseconds(1100)) == nil)
        #expect(buckets.take(for: "10.0.0.7", now: start + .milliseconds(1200)) == 1)
    }

    @Test func expensiveRoutesAnswer429WithRetryAfterAndReadsGoOn() async throws {
        let fixture = try await ServerFixture.shared.value
        let app = MarqueeServer(library: fixture.library, rateLimits: RateLimits(burst: 3, refillPerSecond: 0.01))
            .application(host: "127.0.0.1", port: 0)
        try await app.test(.live) { client in
            for _ in 0..<3 {
                try await client.execute(uri: "/api/assets", method: .post, body: .json(#"{"paths": ["/not/here.mp4"]}"#)) { response throws in
                    #expect(response.status == .notFound)  // nothing at that path (issue 24)
                }
            }
            try await client.execute(uri: "/api/assets", method: .post, body: .json(#"{"paths": ["/not/here.mp4"]}"#)) { response throws in
                #expect(response.status == .tooManyRequests)
                #expect(Int(response.headers[.retryAfter] ?? "") ?? 0 >= 1)
                #expect(response.errorMessage.contains("try again"))
            }
            try await client.execute(uri: "/api/assets", method: .get) { response throws in
                #expect(response.status == .ok)
            }
        }
    }
}

@Suite("Connection places")
struct ConnectionPlacesTests {
    @Test("One address gets its share of places, others still get theirs, and a closed connection gives its place back")
    func perAddressShare() {
        let count = ConnectionCount(maximum: 10, maximumPerAddress: 3)
        #expect((0..<3).allSatisfy { _ in count.admit(from: "192.0.2.1") })
        #expect(!count.admit(from: "192.0.2.1"))
        #expect(count.admit(from: "192.0.2.2"))
        count.release(from: "192.0.2.1")
        #expect(count.current(from: "192.0.2.1") == 2)
        #expect(count.admit(from: "192.0.2.1"))
        // The global limit still holds across addresses.
        for n in 3..<9 { #expect(count.admit(from: "192.0.2.\(n)")) }
        #expect(count.current == 10)
        #expect(!count.admit(from: "192.0.2.200"))
    }

    @Test func theDefaultShareIsAQuarterAndAtLeastEight() {
        #expect(ConnectionLimits(maximumConnections: 8192).maximumPerAddress == 2048)
        #expect(ConnectionLimits(maximumConnections: 20).maximumPerAddress == 8)
        #expect(ConnectionLimits(maximumConnections: 4).maximumPerAddress == 4)
        #expect(ConnectionLimits(maximumConnections: 100, maximumPerAddress: 500).maximumPerAddress == 100)
    }
}
