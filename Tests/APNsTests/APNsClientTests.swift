import APNs
import APNsTesting
import Crypto
import Foundation
import Testing

@Suite("APNs provider against a local HTTP/2 APNs", .serialized)
struct APNsClientTests {
    @Test("A start, updates and an end arrive in order with the keys and headers APNs wants")
    func startUpdateEnd() async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        let now = Date(timeIntervalSince1970: Double(Int(Date().timeIntervalSince1970)))
        let start = LiveActivityNotification(
            event: .start, timestamp: now, contentState: Data(#"{"percent":0}"#.utf8), staleDate: now.addingTimeInterval(900),
            relevanceScore: 150, alert: .init(title: "Downloading", body: "Film", sound: "default"), attributesType: "Downloading",
            attributes: Data(#"{"title":"Film"}"#.utf8), inputPushToken: true)
        let first = await fixture.client.send(start, to: APNsFixture.token, priority: 10)
        #expect(first.kind == .delivered, "\(first)")
        for percent in [25, 50, 75] {
            let result = await fixture.client.send(APNsFixture.update(percent, at: now.addingTimeInterval(Double(percent))), to: APNsFixture.token, priority: 5)
            #expect(result.kind == .delivered)
        }
        let end = LiveActivityNotification(
            event: .end, timestamp: now.addingTimeInterval(100), contentState: Data(#"{"percent":100}"#.utf8),
            dismissalDate: now.addingTimeInterval(160))
        #expect(await fixture.client.send(end, to: APNsFixture.token, priority: 10, expiration: now.addingTimeInterval(3600)).kind == .delivered)

        let received = fixture.server.received
        #expect(fixture.server.refusals.isEmpty, "\(fixture.server.refusals)")
        #expect(received.map { $0.aps["event"] } == [.string("start"), .string("update"), .string("update"), .string("update"), .string("end")])
        #expect(received.allSatisfy { $0.path == "/3/device/\(APNsFixture.token)" })
        #expect(received.allSatisfy { $0.headers["apns-push-type"] == "liveactivity" })
        #expect(received.allSatisfy { $0.headers["apns-topic"] == "org.marquee.app.push-type.liveactivity" })
        #expect(received.allSatisfy { $0.headers["apns-id"].flatMap(UUID.init(uuidString:)) != nil })
        #expect(received.map { $0.headers["apns-priority"] } == ["10", "5", "5", "5", "10"])
        #expect(received.last?.headers["apns-expiration"] == String(Int(now.timeIntervalSince1970) + 3600))
        // Without a given expiration, APNs keeps each push for a phone that is offline.
        #expect(received.dropLast().allSatisfy { Int($0.headers["apns-expiration"] ?? "0")! > Int(Date().timeIntervalSince1970) })
        let startAPS = received[0].aps
        #expect(
            received[0].apsKeys == [
                "timestamp", "event", "content-state", "stale-date", "relevance-score", "alert",
                "attributes-type", "attributes", "input-push-token",
            ])
        #expect(startAPS["timestamp"] == .integer(Int64(now.timeIntervalSince1970)))
        #expect(startAPS["stale-date"] == .integer(Int64(now.timeIntervalSince1970) + 900))
        #expect(startAPS["relevance-score"] == .integer(150))
        #expect(startAPS["attributes-type"] == .string("Downloading"))
        #expect(received[1].apsKeys == ["timestamp", "event", "content-state", "stale-date", "relevance-score"])
        #expect(received[4].apsKeys == ["timestamp", "event", "content-state", "dismissal-date"])
        #expect(received[4].aps["dismissal-date"] == .integer(Int64(now.timeIntervalSince1970) + 160))
        // One provider token for all five pushes: it is reused, not made per request.
        #expect(Set(received.map(\.providerToken)).count == 1)
        #expect(await fixture.client.signedTokenCount == 1)
    }

    @Test("410 Unregistered is reported as unregistered")
    func unregistered() async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        fixture.server.script([.init(410, "Unregistered")], for: APNsFixture.token)
        let result = await fixture.client.send(APNsFixture.update(1), to: APNsFixture.token)
        #expect(result.kind == .unregistered)
        #expect(result.status == 410 && result.reason == "Unregistered")
        #expect(result.attempts == 1)
    }

    @Test("429 backs that token off: the next push to it is not sent, other tokens still are")
    func throttled() async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        fixture.server.script([.init(429, "TooManyRequests")], for: APNsFixture.token)
        let first = await fixture.client.send(APNsFixture.update(1), to: APNsFixture.token)
        #expect(first.kind == .throttled && first.reason == "TooManyRequests")
        #expect(first.retryAfter != nil)
        let second = await fixture.client.send(APNsFixture.update(2), to: APNsFixture.token)
        #expect(second.kind == .refused)
        #expect(fixture.server.attempts(for: APNsFixture.token) == 1)
        let other = String(repeating: "b2", count: 32)
        #expect(await fixture.client.send(APNsFixture.update(3), to: other).kind == .delivered)
    }

    @Test("403 ExpiredProviderToken signs a new JWT and sends again, once")
    func expiredProviderToken() async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        #expect(await fixture.client.send(APNsFixture.update(1), to: APNsFixture.token).kind == .delivered)
        fixture.server.expireSeenProviderTokens()
        let rotated = await fixture.client.send(APNsFixture.update(2), to: APNsFixture.token)
        #expect(rotated.kind == .delivered)
        #expect(rotated.attempts == 2)
        #expect(await fixture.client.signedTokenCount == 2)
        #expect(fixture.server.distinctProviderTokens == 2)
        // When the new token is refused too, no other is signed within 20 minutes of the
        // last early renewal (APNs answers TooManyProviderTokenUpdates to more).
        fixture.server.expireEveryProviderToken()
        let refused = await fixture.client.send(APNsFixture.update(3), to: APNsFixture.token)
        #expect(refused.kind == .rejected && refused.reason == "ExpiredProviderToken")
        #expect(refused.attempts == 1)
        #expect(await fixture.client.signedTokenCount == 2)
    }

    @Test("Repeated 403 ExpiredProviderToken: at most one new provider token per 20 minutes")
    func expiredProviderTokenRenewedAtMostEvery20Minutes() async throws {
        let clock = MovableDate()
        let fixture = try await APNsFixture.start(now: { clock.now })
        defer { Task { await fixture.stop() } }
        fixture.server.expireEveryProviderToken()
        for percent in 1...7 {
            let result = await fixture.client.send(APNsFixture.update(percent), to: APNsFixture.token)
            #expect(result.reason == "ExpiredProviderToken")
        }
        // The first token, and one renewal for the first 403.
        #expect(fixture.server.distinctProviderTokens == 2)
        #expect(await fixture.client.signedTokenCount == 2)
        // 20 minutes later (by the client's clock) one more renewal is allowed, and only one.
        clock.advance(by: 20 * 60 + 1)
        _ = await fixture.client.send(APNsFixture.update(8), to: APNsFixture.token)
        _ = await fixture.client.send(APNsFixture.update(9), to: APNsFixture.token)
        #expect(await fixture.client.signedTokenCount == 3)
    }

    @Test("TooManyProviderTokenUpdates is about the provider: no device token is backed off, and no token is renewed early for 20 minutes")
    func tooManyProviderTokenUpdatesIsProviderWide() async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        fixture.server.script([.init(429, "TooManyProviderTokenUpdates")], for: APNsFixture.token)
        let result = await fixture.client.send(APNsFixture.update(1), to: APNsFixture.token)
        #expect(result.kind != .throttled && result.retryAfter == nil)
        #expect(await fixture.client.backedOff(APNsFixture.token) == nil)
        #expect(await fixture.client.send(APNsFixture.update(2), to: APNsFixture.token).kind == .delivered)
        fixture.server.expireEveryProviderToken()
        _ = await fixture.client.send(APNsFixture.update(3), to: APNsFixture.token)
        #expect(await fixture.client.signedTokenCount == 1)
    }

    @Test("400 BadDeviceToken drops the token like 410")
    func badDeviceTokenIsUnregistered() async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        fixture.server.script([.init(400, "BadDeviceToken")], for: APNsFixture.token)
        let result = await fixture.client.send(APNsFixture.update(1), to: APNsFixture.token)
        #expect(result.kind == .unregistered && result.attempts == 1)
    }

    @Test("apns-expiration suits the push: an update until its stale date, an end for the time the Lock Screen keeps it")
    func expirationSuitsThePush() async throws {
        let now = Date(timeIntervalSince1970: 1_900_000_000)
        let update = LiveActivityNotification(
            event: .update, timestamp: now, contentState: Data("{}".utf8), staleDate: now.addingTimeInterval(600))
        #expect(update.expiration(now: now) == now.addingTimeInterval(600))
        let endDefault = LiveActivityNotification(event: .end, timestamp: now, contentState: Data("{}".utf8))
        #expect(endDefault.expiration(now: now) == now.addingTimeInterval(4 * 3600))
        let endSoon = LiveActivityNotification(event: .end, timestamp: now, contentState: Data("{}".utf8), dismissalDate: now.addingTimeInterval(60))
        #expect(endSoon.expiration(now: now) == now.addingTimeInterval(60))
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        let sent = Date()
        #expect(await fixture.client.send(APNsFixture.update(1, at: sent), to: APNsFixture.token).kind == .delivered)
        let header = try #require(fixture.server.received.last?.headers["apns-expiration"])
        #expect(Int(header)! >= Int(sent.timeIntervalSince1970) + 590)
    }

    @Test(
        "Reasons that no retry fixes are not retried",
        arguments: [
            (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"), (403, "Forbidden"), (413, "PayloadTooLarge"), (410, "Unregistered"),
        ])
    func neverRetried(status: Int, reason: String) async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        fixture.server.script([.init(status, reason), .init(status, reason)], for: APNsFixture.token)
        let result = await fixture.client.send(APNsFixture.update(1), to: APNsFixture.token)
        #expect(result.reason == reason && result.status == status)
        #expect(result.attempts == 1)
        #expect(fixture.server.attempts(for: APNsFixture.token) == 1)
    }

    @Test("5xx is retried with back-off until it succeeds or the attempts run out")
    func serverErrorsRetried() async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        fixture.server.script([.init(500, "InternalServerError"), .init(503, "ServiceUnavailable")], for: APNsFixture.token)
        let result = await fixture.client.send(APNsFixture.update(1), to: APNsFixture.token)
        #expect(result.kind == .delivered && result.attempts == 3)
        fixture.server.script(Array(repeating: .init(503, "ServiceUnavailable"), count: 3), for: APNsFixture.token)
        let failed = await fixture.client.send(APNsFixture.update(2), to: APNsFixture.token)
        #expect(failed.kind == .failed && failed.attempts == 3 && failed.reason == "ServiceUnavailable")
        #expect(fixture.server.attempts(for: APNsFixture.token) == 6)
    }

    @Test("A 5 KB content state is refused before anything is sent")
    func payloadTooLargeRefusedLocally() async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        let big = LiveActivityNotification(
            event: .update, timestamp: Date(),
            contentState: Data(#"{"text":"\#(String(repeating: "x", count: 5 * 1024))"}"#.utf8))
        let result = await fixture.client.send(big, to: APNsFixture.token)
        #expect(result.kind == .refused && result.attempts == 0)
        #expect(result.reason?.contains("at most 4096") == true)
        #expect(fixture.server.attempts(for: APNsFixture.token) == 0)
        #expect(throws: APNsError.self) { try big.payload() }
    }

    @Test("Payload rules: a start needs an alert and attributes; dismissal-date only with end")
    func payloadRules() throws {
        let now = Date()
        let noAlert = LiveActivityNotification(event: .start, timestamp: now, contentState: Data("{}".utf8), attributesType: "T", attributes: Data("{}".utf8))
        #expect(throws: APNsError.invalidNotification("A start push needs an alert")) { try noAlert.payload() }
        let dismissalOnUpdate = LiveActivityNotification(event: .update, timestamp: now, contentState: Data("{}".utf8), dismissalDate: now)
        #expect(throws: APNsError.invalidNotification("dismissal-date goes only with an end push")) { try dismissalOnUpdate.payload() }
        let notObject = LiveActivityNotification(event: .update, timestamp: now, contentState: Data("[1]".utf8))
        #expect(throws: APNsError.self) { try notObject.payload() }
        // Relevance is passed as given, not clamped to 0…1; dates are whole seconds.
        let update = LiveActivityNotification(
            event: .update, timestamp: Date(timeIntervalSince1970: 1_700_000_000.75),
            contentState: Data(#"{"a":"é\"\n"}"#.utf8), relevanceScore: 250.5)
        let json = try JSONSerialization.jsonObject(with: update.payload()) as! [String: Any]
        let aps = json["aps"] as! [String: Any]
        #expect(aps["relevance-score"] as? Double == 250.5)
        #expect(aps["timestamp"] as? Int == 1_700_000_000)
        #expect((aps["content-state"] as? [String: String])?["a"] == "é\"\n")
    }

    @Test("Broadcast channels: create, read, list, send and delete use the right paths and headers")
    func channels() async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        let id = try await fixture.client.createChannel(storagePolicy: 1)
        #expect(fixture.server.channelIDs == [id])
        let settings = try await fixture.client.channel(id: id)
        #expect(settings.messageStoragePolicy == 1 && settings.pushType == "LiveActivity")
        #expect(try await fixture.client.listChannels() == [id])
        let sent = await fixture.client.broadcast(APNsFixture.update(10), channelID: id, priority: 10)
        #expect(sent.kind == .delivered, "\(sent)")
        let broadcast = try #require(fixture.server.received.last)
        #expect(broadcast.path == "/4/broadcasts/apps/org.marquee.app")
        #expect(broadcast.headers["apns-channel-id"] == id)
        #expect(broadcast.headers["apns-push-type"] == "liveactivity")
        try await fixture.client.deleteChannel(id: id)
        #expect(try await fixture.client.listChannels().isEmpty)
        await #expect(throws: APNsError.rejected(status: 404, reason: "ChannelNotRegistered")) { try await fixture.client.channel(id: id) }
        let requests = fixture.server.managementRequests
        #expect(requests.map(\.method) == ["POST", "GET", "GET", "DELETE", "GET", "GET"])
        #expect(
            requests.map(\.path) == [
                "/1/apps/org.marquee.app/channels", "/1/apps/org.marquee.app/channels", "/1/apps/org.marquee.app/all-channels",
                "/1/apps/org.marquee.app/channels", "/1/apps/org.marquee.app/all-channels", "/1/apps/org.marquee.app/channels",
            ])
        #expect(requests.map(\.channelID) == [nil, id, nil, id, nil, id])
    }

    @Test("The stand-in refuses a token signed by another key, so its checks are real")
    func wrongKeyRefused() async throws {
        let fixture = try await APNsFixture.start()
        defer { Task { await fixture.stop() } }
        let stranger = try APNsClient(
            configuration: APNsConfiguration(
                keyID: "KEY1234567", teamID: "TEAM123456", bundleID: APNsFixture.bundleID, signingKey: P256.Signing.PrivateKey(),
                endpoints: .all(at: fixture.server.baseURL), extraTrustRoots: fixture.server.authority.caFile))
        let result = await stranger.send(APNsFixture.update(1), to: APNsFixture.token)
        try? await stranger.shutdown()
        #expect(result.kind == .rejected && result.status == 403 && result.reason == "InvalidProviderToken")
        let wrongTopic = try APNsClient(
            configuration: APNsConfiguration(
                keyID: "KEY1234567", teamID: "TEAM123456", bundleID: "org.other.app", signingKey: fixture.key,
                endpoints: .all(at: fixture.server.baseURL), extraTrustRoots: fixture.server.authority.caFile))
        let topic = await wrongTopic.send(APNsFixture.update(1), to: APNsFixture.token)
        try? await wrongTopic.shutdown()
        #expect(topic.reason == "BadTopic")
    }
}

@Suite("APNs configuration and provider tokens")
struct APNsConfigurationTests {
    @Test("Nothing configured means pushes are off; a partial configuration is an error that names what is missing")
    func loading() throws {
        #expect(try APNsConfiguration.load(environment: [:]) == nil)
        #expect(throws: APNsConfigurationError.self) { try APNsConfiguration.load(environment: ["MARQUEE_APNS_KEY_ID": "K"]) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = P256.Signing.PrivateKey()
        try key.pemRepresentation.write(to: directory.appendingPathComponent("AuthKey_K.p8"), atomically: true, encoding: .utf8)
        let fromEnvironment = try #require(
            try APNsConfiguration.load(environment: [
                "MARQUEE_APNS_KEY_FILE": directory.appendingPathComponent("AuthKey_K.p8").path, "MARQUEE_APNS_KEY_ID": "K",
                "MARQUEE_APNS_TEAM_ID": "T", "MARQUEE_APNS_BUNDLE_ID": "b.c", "MARQUEE_APNS_ENVIRONMENT": "sandbox",
            ]))
        #expect(fromEnvironment.environment == .sandbox && fromEnvironment.liveActivityTopic == "b.c.push-type.liveactivity")
        #expect(fromEnvironment.signingKey.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        let file = directory.appendingPathComponent("apns.json")
        try Data(#"{"keyFile":"AuthKey_K.p8","keyID":"K","teamID":"T","bundleID":"b.c","highPriorityPerHour":3}"#.utf8).write(to: file)
        let fromFile = try #require(try APNsConfiguration.load(file: file, environment: [:]))
        #expect(fromFile.highPriorityPerHour == 3 && fromFile.environment == .production)
    }

    @Test("A provider token is an ES256 JWT with kid, iss and iat that verifies with the key; it is reused until its lifetime ends")
    func providerToken() throws {
        let key = P256.Signing.PrivateKey()
        let issued = Date(timeIntervalSince1970: 1_700_000_000)
        let token = try ProviderToken(keyID: "KID", teamID: "TEAM", key: key, issuedAt: issued)
        let parts = token.value.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        func decode(_ s: String) -> Data {
            var b = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while b.count % 4 != 0 { b += "=" }
            return Data(base64Encoded: b)!
        }
        let header = try JSONSerialization.jsonObject(with: decode(parts[0])) as! [String: Any]
        let claims = try JSONSerialization.jsonObject(with: decode(parts[1])) as! [String: Any]
        #expect(header["alg"] as? String == "ES256" && header["kid"] as? String == "KID")
        #expect(claims["iss"] as? String == "TEAM" && claims["iat"] as? Int == 1_700_000_000)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: decode(parts[2]))
        #expect(key.publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
        // Lifetime is clamped to APNs' 20–60 minutes.
        let configuration = APNsConfiguration(keyID: "K", teamID: "T", bundleID: "b", signingKey: key, tokenLifetime: 5)
        #expect(configuration.tokenLifetime == 20 * 60)
    }
}
