import APNs
import APNsTesting
import Crypto
import Foundation
import Testing

/// A large send against an APNs that throttles: every token gets the push exactly once.
@Suite("APNs at scale")
struct APNsScaleTests {
    static func tokens(_ count: Int) -> [String] {
        (0..<count).map { String(format: "%064x", $0 + 1) }
    }

    static func start(throttle: APNsTestServer.Throttle, maximumConnections: Int = 4) async throws -> (APNsTestServer, APNsClient) {
        let key = P256.Signing.PrivateKey()
        let server = try await APNsTestServer.start(
            identity: .init(keyID: "KEY1234567", teamID: "TEAM123456", bundleID: APNsFixture.bundleID, publicKey: key.publicKey),
            throttle: throttle)
        server.keepReceived(false)
        let configuration = APNsConfiguration(
            keyID: "KEY1234567", teamID: "TEAM123456", bundleID: APNsFixture.bundleID, signingKey: key,
            environment: .sandbox, endpoints: .all(at: server.baseURL), retryDelay: .milliseconds(10),
            extraTrustRoots: server.authority.caFile, maximumConnections: maximumConnections)
        return (server, try APNsClient(configuration: configuration))
    }

    @Test(
        "One update to 2,000 tokens against an APNs that answers 50 requests/s with 8 streams a connection: each token gets it exactly once"
    )
    func twoThousandTokensExactlyOnce() async throws {
        let (server, client) = try await Self.start(throttle: .init(requestsPerSecond: 50, maxConcurrentStreams: 8))
        let tokens = Self.tokens(2000)
        let update = APNsFixture.update(42)
        let results = await withTaskGroup(of: PushResult.self) { group in
            for token in tokens { group.addTask { await client.send(update, to: token, priority: 5) } }
            var all: [PushResult] = []
            for await result in group { all.append(result) }
            return all
        }
        let counts = server.deliveryCounts
        let missing = tokens.filter { counts[$0] == nil }
        let doubled = tokens.filter { (counts[$0] ?? 0) > 1 }
        #expect(missing.isEmpty, "\(missing.count) tokens got nothing")
        #expect(doubled.isEmpty, "\(doubled.count) tokens got the push more than once")
        #expect(results.filter { $0.kind != .delivered }.isEmpty)
        try? await client.shutdown()
        try? await server.stop()
    }

    @Test("A stream the server refuses (more than its SETTINGS allow) is sent again with the same apns-id, and arrives once")
    func refusedStreamsSentAgainWithTheSameID() async throws {
        // One stream a connection and one connection: the client must queue, never open a
        // second stream the server would refuse.
        let (server, client) = try await Self.start(throttle: .init(requestsPerSecond: 400, maxConcurrentStreams: 1), maximumConnections: 1)
        let tokens = Self.tokens(60)
        let update = APNsFixture.update(7)
        let ids = Dictionary(uniqueKeysWithValues: tokens.map { ($0, UUID()) })
        let results = await withTaskGroup(of: (String, PushResult).self) { group in
            for token in tokens {
                group.addTask { (token, await client.send(update, to: token, priority: 5, apnsID: ids[token]!)) }
            }
            var all: [String: PushResult] = [:]
            for await (token, result) in group { all[token] = result }
            return all
        }
        for token in tokens {
            #expect(results[token]?.kind == .delivered)
            #expect(results[token]?.apnsID == ids[token]!.uuidString.lowercased())
            #expect(server.deliveries(for: token) == 1)
        }
        // The server never had to refuse a stream: the client kept to one at a time.
        #expect(server.refusals.isEmpty)
        try? await client.shutdown()
        try? await server.stop()
    }
}
