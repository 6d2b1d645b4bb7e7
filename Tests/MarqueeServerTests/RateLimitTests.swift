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

/// Behind a reverse proxy the client is the one the proxy forwarded, and only a trusted
/// proxy's word counts (otherwise one client could pick any bucket, or every client behind
/// nginx shared one and one person's failed sign-ins locked everyone out).
@Suite("Trusted proxies")
struct TrustedProxiesTests {
    @Test func networksParseAndMatch() throws {
        for text in ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8", "0.0.0.0/0", "192.0.2.1/32"] {
            #expect(TrustedProxies.Network(text) != nil, "\(text)")
        }
        for text in ["", "abc", "10.0.0.0/33", "::1/129", "10.0.0.1/", "10.0.0.1/-1", "10.0.0.0/８", "1.2.3", "localhost"] {
            #expect(TrustedProxies.Network(text) == nil, "\(text)")
        }
        let proxies = TrustedProxies([try #require(.init("10.0.0.0/8")), try #require(.init("::1"))])
        #expect(proxies.trusts("10.200.3.4"))
        #expect(proxies.trusts("::ffff:10.0.0.1"))  // as a dual-stack socket reports it
        #expect(proxies.trusts("::1"))
        #expect(!proxies.trusts("11.0.0.1"))
        #expect(!proxies.trusts("::2"))
        #expect(!proxies.trusts("not an address"))
    }

    @Test func theClientIsTheRightMostAddressNoTrustedProxyWrote() throws {
        let proxies = TrustedProxies([try #require(.init("127.0.0.1")), try #require(.init("10.0.0.0/8"))])
        // An untrusted peer's header is ignored: it cannot choose its bucket.
        #expect(proxies.client(peer: "203.0.113.9", forwardedFor: ["198.51.100.1"]) == "203.0.113.9")
        // nginx on the same machine.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["198.51.100.1"]) == "198.51.100.1")
        // Two proxies; what the client wrote at the left is not believed.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 198.51.100.1, 10.1.2.3"]) == "198.51.100.1")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6", "198.51.100.1"]) == "198.51.100.1")
        // Nothing forwarded, or nonsense: the last trusted hop is the client.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["unknown"]) == "127.0.0.1")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["198.51.100.1, <script>"]) == "127.0.0.1")
        #expect(TrustedProxies.none.client(peer: "127.0.0.1", forwardedFor: ["198.51.100.1"]) == "127.0.0.1")
    }

    @Test("Behind a trusted proxy each forwarded client has its own bucket; without one, X-Forwarded-For changes nothing")
    func bucketsFollowTheForwardedClient() async throws {
        let fixture = try await ServerFixture.shared.value
        let body = #"{"paths": ["/not/here.mp4"]}"#
        var behind = MarqueeServer(library: fixture.library, rateLimits: RateLimits(burst: 2, refillPerSecond: 0.01))
        behind.trustedProxies = TrustedProxies([try #require(.init("127.0.0.1"))])
        try await behind.application(host: "127.0.0.1", port: 0).test(.live) { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/api/assets", method: .post, headers: [.xForwardedFor: "198.51.100.1"], body: .json(body)) { response in
                    #expect(response.status == .notFound)
                }
            }
            try await client.execute(uri: "/api/assets", method: .post, headers: [.xForwardedFor: "198.51.100.1"], body: .json(body)) { response in
                #expect(response.status == .tooManyRequests)
            }
            // Another person behind the same proxy is not held back.
            try await client.execute(uri: "/api/assets", method: .post, headers: [.xForwardedFor: "198.51.100.2"], body: .json(body)) { response in
                #expect(response.status == .notFound)
            }
        }
        let direct = MarqueeServer(library: fixture.library, rateLimits: RateLimits(burst: 2, refillPerSecond: 0.01))
        try await direct.application(host: "127.0.0.1", port: 0).test(.live) { client in
            for index in 0..<3 {
                try await client.execute(uri: "/api/assets", method: .post, headers: [.xForwardedFor: "198.51.100.\(index)"], body: .json(body)) {
                    response in
                    #expect(response.status == (index < 2 ? .notFound : .tooManyRequests), "a made-up X-Forwarded-For gave a new bucket")
                }
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
