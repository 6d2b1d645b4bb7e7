import APNs
import APNsTesting
import Crypto
import Foundation
import Synchronization

/// A team key, a local APNs stand-in that knows its public half, and a client for it.
struct APNsFixture: Sendable {
    static let bundleID = "org.marquee.app"
    let keyBytes: Data
    var key: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: keyBytes) }
    let server: APNsTestServer
    let client: APNsClient

    static func start(
        retryDelay: Duration = .milliseconds(10), throttleDelay: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> APNsFixture {
        let key = P256.Signing.PrivateKey()
        let server = try await APNsTestServer.start(
            identity: .init(
                keyID: "KEY1234567", teamID: "TEAM123456", bundleID: bundleID,
                publicKey: key.publicKey))
        let configuration = APNsConfiguration(
            keyID: "KEY1234567", teamID: "TEAM123456", bundleID: bundleID, signingKey: key,
            environment: .sandbox, endpoints: .all(at: server.baseURL), retryDelay: retryDelay,
            throttleDelay: throttleDelay, extraTrustRoots: server.authority.caFile)
        return APNsFixture(keyBytes: key.rawRepresentation, server: server, client: try APNsClient(configuration: configuration, now: now))
    }

    func stop() async {
        try? await client.shutdown()
        try? await server.stop()
    }

    static let token = String(repeating: "a1", count: 32)

    static func update(_ percent: Int, at timestamp: Date = Date()) -> LiveActivityNotification {
        LiveActivityNotification(
            event: .update, timestamp: timestamp, contentState: Data(#"{"percent":\#(percent)}"#.utf8),
            staleDate: timestamp.addingTimeInterval(600), relevanceScore: 50)
    }
}

/// A date a test moves by hand (for the client's idea of now).
final class MovableDate: Sendable {
    private let offset = Mutex<TimeInterval>(0)
    var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
