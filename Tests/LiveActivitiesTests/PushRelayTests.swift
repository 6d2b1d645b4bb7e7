import APNs
import APNsTesting
import Crypto
import Foundation
import GRDB
import JSONDocument
import MediaTesting
import Testing

@testable import LiveActivities

/// A center, a relay, and a local APNs that knows the team key.
struct RelayFixture: Sendable {
    let center: ActivityCenter
    let relay: ActivityPushRelay
    let server: APNsTestServer
    let client: APNsClient

    static func start(highPriorityPerHour: Int = 12, throttleDelay: TimeInterval = 60) async throws -> RelayFixture {
        let key = P256.Signing.PrivateKey()
        let server = try await APNsTestServer.start(
            identity: .init(
                keyID: "KEY1", teamID: "TEAM1", bundleID: "org.marquee.app",
                publicKey: key.publicKey))
        let client = try APNsClient(
            configuration: APNsConfiguration(
                keyID: "KEY1", teamID: "TEAM1", bundleID: "org.marquee.app", signingKey: key, endpoints: .all(at: server.baseURL),
                highPriorityPerHour: highPriorityPerHour, retryDelay: .milliseconds(5), throttleDelay: throttleDelay,
                extraTrustRoots: server.authority.caFile))
        let center = try await ActivityCenter(store: SQLiteActivityStore(database: DatabaseQueue()))
        let relay = ActivityPushRelay(center: center, client: client)
        await relay.start()
        return RelayFixture(center: center, relay: relay, server: server, client: client)
    }

    func stop() async {
        await relay.stop()
        try? await client.shutdown()
        try? await server.stop()
    }
}

let deviceToken = String(repeating: "0f", count: 32)
let startToken = String(repeating: "5a", count: 32)

@Suite("Activity pushes through APNs", .serialized)
struct PushRelayTests {
    @Test("Start to the push-to-start token, then updates and the end to the activity's token, in order")
    func lifecycleInOrder() async throws {
        let fixture = try await RelayFixture.start()
        defer { Task { await fixture.stop() } }
        _ = try await fixture.center.registerPushToStartToken(startToken, deviceID: "phone", attributesType: "Sample", environment: .production)
        let id = try await fixture.center.request(
            type: "Sample", attributes: .object(["title": .string("Film")]), content: content(0),
            alert: AlertConfiguration(title: "Downloading", body: "Film")
        ).activity.id
        try await eventually("the start push to reach APNs") { fixture.server.received.count == 1 }
        _ = try await fixture.center.registerPushToken(deviceToken, activityID: id, deviceID: "phone", environment: .production)
        for (n, percent) in [10, 20, 30].enumerated() {
            try await fixture.center.update(id: id, content: content(percent))
            try await eventually("update \(n + 1) to reach APNs") { fixture.server.received.count == n + 2 }
        }
        try await fixture.center.end(id: id, content: content(100), dismissalPolicy: .immediate)
        try await eventually("the end push to reach APNs") { fixture.server.received.count == 5 }
        let received = fixture.server.received
        #expect(fixture.server.refusals.isEmpty, "\(fixture.server.refusals)")
        #expect(received.map(\.target) == [startToken, deviceToken, deviceToken, deviceToken, deviceToken])
        #expect(received.map { $0.aps["event"] } == [.string("start"), .string("update"), .string("update"), .string("update"), .string("end")])
        #expect(received[0].apsKeys.isSuperset(of: ["attributes-type", "attributes", "alert", "input-push-token"]))
        #expect(received[4].apsKeys.contains("dismissal-date"))
        let percents = received.compactMap {
            (try? JSONSerialization.jsonObject(with: $0.payload) as? [String: Any])
                .flatMap { (($0["aps"] as? [String: Any])?["content-state"] as? [String: Any])?["percent"] as? Int }
        }
        #expect(percents == [0, 10, 20, 30, 100])
        try await eventually("five outcomes to be stored") { try await fixture.center.store.outcomes(activityID: id).count == 5 }
        let outcomes = try await fixture.center.store.outcomes(activityID: id)
        #expect(outcomes.count == 5 && outcomes.allSatisfy { $0.result == "delivered" })
    }

    @Test("Rapid updates are coalesced: fewer pushes, and the last one carries the latest state")
    func coalescing() async throws {
        let fixture = try await RelayFixture.start()
        defer { Task { await fixture.stop() } }
        let id = try await fixture.center.request(type: "Sample", attributes: .object([:]), content: content(0)).activity.id
        _ = try await fixture.center.registerPushToken(deviceToken, activityID: id, deviceID: "phone", environment: .production)
        for percent in 1...50 { try await fixture.center.update(id: id, content: content(percent)) }
        try await eventually("the latest state (50 %) to reach APNs") {
            guard let last = fixture.server.received.last else { return false }
            return String(decoding: last.payload, as: UTF8.self).contains(#""percent":50"#)
        }
        await fixture.relay.drain()
        #expect(fixture.server.received.count < 50)
    }

    @Test("Priority 10 at most N times an hour per activity, then 5")
    func budget() async throws {
        let fixture = try await RelayFixture.start(highPriorityPerHour: 2)
        defer { Task { await fixture.stop() } }
        let id = try await fixture.center.request(type: "Sample", attributes: .object([:]), content: content(0)).activity.id
        _ = try await fixture.center.registerPushToken(deviceToken, activityID: id, deviceID: "phone", environment: .production)
        for percent in 1...4 {
            try await fixture.center.update(id: id, content: content(percent))
            try await eventually("push \(percent) to reach APNs") { fixture.server.received.count == percent }
        }
        #expect(fixture.server.received.map { $0.headers["apns-priority"] } == ["10", "10", "5", "5"])
    }

    @Test("410 deletes the token; 429 backs it off and the next update is not sent to it")
    func tokenAnswers() async throws {
        let fixture = try await RelayFixture.start()
        defer { Task { await fixture.stop() } }
        let id = try await fixture.center.request(type: "Sample", attributes: .object([:]), content: content(0)).activity.id
        let gone = String(repeating: "1e", count: 32)
        _ = try await fixture.center.registerPushToken(gone, activityID: id, deviceID: "old-phone", environment: .production)
        _ = try await fixture.center.registerPushToken(deviceToken, activityID: id, deviceID: "phone", environment: .production)
        fixture.server.script([.init(410, "Unregistered")], for: gone)
        fixture.server.script([.init(429, "TooManyRequests")], for: deviceToken)
        try await fixture.center.update(id: id, content: content(1))
        try await eventually("both tokens' outcomes to be stored") { try await fixture.center.store.outcomes(activityID: id).count == 2 }
        #expect(try await fixture.center.store.pushTokens(activityID: id).map(\.token) == [deviceToken])
        let backedOff = try #require(try await fixture.center.store.pushTokens(activityID: id).first?.backoffUntil)
        #expect(backedOff > Date())
        try await fixture.center.update(id: id, content: content(2))
        try await eventually("the held-back update's outcome to be stored") { try await fixture.center.store.outcomes(activityID: id).count == 3 }
        #expect(fixture.server.attempts(for: deviceToken) == 1)
        let results = try await fixture.center.store.outcomes(activityID: id).map(\.result)
        #expect(Set(results) == ["unregistered", "throttled", "refused"])
    }

    @Test("After a 429 back-off, updates made meanwhile are coalesced and the end, with the latest state, reaches the phone when it lifts")
    func endDeliveredAfterBackOff() async throws {
        let fixture = try await RelayFixture.start(throttleDelay: 2)
        defer { Task { await fixture.stop() } }
        let id = try await fixture.center.request(type: "Sample", attributes: .object([:]), content: content(0)).activity.id
        _ = try await fixture.center.registerPushToken(deviceToken, activityID: id, deviceID: "phone", environment: .production)
        fixture.server.script([.init(429, "TooManyRequests")], for: deviceToken)
        try await fixture.center.update(id: id, content: content(1))
        let backedOffUntil = try await eventuallyValue("the token to be backed off after the 429") {
            try await fixture.center.store.pushTokens(activityID: id).first?.backoffUntil
        }
        for percent in 2...5 { try await fixture.center.update(id: id, content: content(percent)) }
        try await fixture.center.end(id: id, content: content(100), dismissalPolicy: .default)
        // On a loaded machine the back-off can lift before the test has made its updates; then
        // the update pending at that moment is rightly pushed too (it failed once so in a full run).
        let endedDuringBackOff = Date() < backedOffUntil
        try await eventually("the end push to reach APNs after the back-off") { fixture.server.received.contains { $0.aps["event"] == .string("end") } }
        await fixture.relay.drain()
        let received = fixture.server.received.filter { $0.target == deviceToken }
        // One push after the back-off: the end, carrying the latest state.
        #expect(endedDuringBackOff ? received.count == 1 : (1...2).contains(received.count), "\(received.count) pushes")
        #expect(received.last?.aps["event"] == .string("end"))
        let last = String(decoding: received.last?.payload ?? Data(), as: UTF8.self)
        #expect(last.contains(#""percent":100"#))
        // Ended with the default policy: the phone keeps it up to 4 hours by itself.
        #expect(received.last?.apsKeys.contains("dismissal-date") == false)
    }

    @Test("After a 429 back-off with no end, the latest update reaches the phone once when it lifts")
    func latestUpdateDeliveredAfterBackOff() async throws {
        let fixture = try await RelayFixture.start(throttleDelay: 2)
        defer { Task { await fixture.stop() } }
        let id = try await fixture.center.request(type: "Sample", attributes: .object([:]), content: content(0)).activity.id
        _ = try await fixture.center.registerPushToken(deviceToken, activityID: id, deviceID: "phone", environment: .production)
        fixture.server.script([.init(429, "TooManyRequests")], for: deviceToken)
        try await fixture.center.update(id: id, content: content(1))
        let backedOffUntil = try await eventuallyValue("the token to be backed off after the 429") {
            try await fixture.center.store.pushTokens(activityID: id).first?.backoffUntil
        }
        for percent in 2...6 { try await fixture.center.update(id: id, content: content(percent)) }
        // As above: a back-off that lifted before the last update lets the one pending then go too.
        let updatedDuringBackOff = Date() < backedOffUntil
        try await eventually("a push to reach APNs after the back-off") { !fixture.server.received.isEmpty }
        try await eventually("the relay to hold nothing back") { await fixture.relay.heldCount == 0 }
        let received = fixture.server.received.filter { $0.target == deviceToken }
        #expect(updatedDuringBackOff ? received.count == 1 : (1...2).contains(received.count), "\(received.count) pushes")
        let last = String(decoding: received.last?.payload ?? Data(), as: UTF8.self)
        #expect(last.contains(#""percent":6"#))
    }

    @Test("A start without an alert does not show the activity type's name as its title")
    func startWithoutAlert() async throws {
        let fixture = try await RelayFixture.start()
        defer { Task { await fixture.stop() } }
        _ = try await fixture.center.registerPushToStartToken(startToken, deviceID: "phone", attributesType: "Match", environment: .production)
        _ = try await fixture.center.request(type: "Match", attributes: .object(["home": .string("A")]), content: content(0))
        try await eventually("the start push to reach APNs") { fixture.server.received.count == 1 }
        let payload = try #require(fixture.server.received.first?.payload)
        let aps = try #require((try JSONSerialization.jsonObject(with: payload) as? [String: Any])?["aps"] as? [String: Any])
        let alert = try #require(aps["alert"] as? [String: Any])
        #expect(alert["title"] as? String != "Match")
    }
}
