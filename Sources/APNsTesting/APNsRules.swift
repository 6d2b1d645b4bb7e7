import Crypto
import Foundation
import NIOFoundationCompat
import NIOHTTP1
import Synchronization

/// What APNs would answer to one request, and the record of it.
struct APNsRules {
    struct Answer {
        var status: Int
        var headers: [(String, String)] = []
        var body = Data()
    }

    struct Refusal: Error {
        var status: Int
        var reason: String
    }

    let box: StateBox
    var identity: APNsTestServer.Identity { box.identity }

    func judge(head: HTTPRequestHead, body: Data) -> Answer {
        let path = head.uri
        do {
            if path.hasPrefix("/3/device/") { return try devicePush(head: head, body: body) }
            if path.hasPrefix("/4/broadcasts/apps/") { return try broadcast(head: head, body: body) }
            if path.hasPrefix("/1/apps/") { return try management(head: head, body: body) }
            throw Refusal(status: 404, reason: "BadPath")
        } catch let refusal as Refusal {
            box.state.withLock { $0.refused.append((refusal.status, refusal.reason, path)) }
            var json = #"{"reason":"\#(refusal.reason)""#
            if refusal.status == 410 { json += #","timestamp":\#(Int64(Date().timeIntervalSince1970 * 1000))"# }
            json += "}"
            var headers: [(String, String)] = []
            if let id = head.headers.first(name: "apns-id") { headers.append(("apns-id", id)) }
            return Answer(status: refusal.status, headers: headers, body: Data(json.utf8))
        } catch {
            return Answer(status: 500, body: Data(#"{"reason":"InternalServerError"}"#.utf8))
        }
    }

    // MARK: Device pushes

    private func devicePush(head: HTTPRequestHead, body: Data) throws -> Answer {
        guard head.method == .POST else { throw Refusal(status: 405, reason: "MethodNotAllowed") }
        let token = String(head.uri.dropFirst("/3/device/".count))
        guard !token.isEmpty else { throw Refusal(status: 400, reason: "MissingDeviceToken") }
        guard token.count >= 16, token.count % 2 == 0, token.allSatisfy(\.isHexDigit) else { throw Refusal(status: 400, reason: "BadDeviceToken") }
        try count(token)
        let providerToken = try checkProviderToken(head.headers)
        try checkSingleHeaders(head.headers)
        guard let pushType = head.headers.first(name: "apns-push-type") else { throw Refusal(status: 400, reason: "InvalidPushType") }
        guard pushType == "liveactivity" else { throw Refusal(status: 400, reason: "InvalidPushType") }
        guard let topic = head.headers.first(name: "apns-topic") else { throw Refusal(status: 400, reason: "MissingTopic") }
        guard topic == identity.bundleID + ".push-type.liveactivity" else {
            throw Refusal(status: 400, reason: topic.hasPrefix(identity.bundleID) ? "TopicDisallowed" : "BadTopic")
        }
        try checkPriorityAndExpiration(head.headers)
        if let id = head.headers.first(name: "apns-id"), UUID(uuidString: id) == nil { throw Refusal(status: 400, reason: "BadMessageId") }
        let aps = try checkPayload(body)
        try scripted(for: token)
        record(method: "POST", path: head.uri, target: token, head: head, body: body, providerToken: providerToken, aps: aps)
        let id = head.headers.first(name: "apns-id") ?? UUID().uuidString.lowercased()
        return Answer(status: 200, headers: [("apns-id", id), ("apns-unique-id", UUID().uuidString.lowercased())])
    }

    private func broadcast(head: HTTPRequestHead, body: Data) throws -> Answer {
        guard head.method == .POST else { throw Refusal(status: 405, reason: "MethodNotAllowed") }
        guard head.uri == "/4/broadcasts/apps/\(identity.bundleID)" else { throw Refusal(status: 400, reason: "BadPath") }
        let providerToken = try checkProviderToken(head.headers)
        guard let channelID = head.headers.first(name: "apns-channel-id") else { throw Refusal(status: 400, reason: "MissingChannelId") }
        try count(channelID)
        guard box.state.withLock({ $0.channels[channelID] }) != nil else { throw Refusal(status: 400, reason: "ChannelNotRegistered") }
        guard head.headers.first(name: "apns-push-type")?.lowercased() == "liveactivity" else { throw Refusal(status: 400, reason: "InvalidPushType") }
        try checkPriorityAndExpiration(head.headers)
        let aps = try checkPayload(body)
        guard aps["event"] != .string("start") else { throw Refusal(status: 400, reason: "BadLiveActivityPayload: a broadcast cannot start an activity") }
        try scripted(for: channelID)
        record(method: "POST", path: head.uri, target: channelID, head: head, body: body, providerToken: providerToken, aps: aps)
        let id = head.headers.first(name: "apns-request-id") ?? UUID().uuidString.lowercased()
        return Answer(status: 200, headers: [("apns-request-id", id), ("apns-unique-id", UUID().uuidString.lowercased())])
    }

    // MARK: Channel management

    private func management(head: HTTPRequestHead, body: Data) throws -> Answer {
        let prefix = "/1/apps/\(identity.bundleID)/"
        guard head.uri.hasPrefix(prefix) else { throw Refusal(status: 400, reason: "BadPath") }
        let resource = String(head.uri.dropFirst(prefix.count))
        _ = try checkProviderToken(head.headers)
        let channelID = head.headers.first(name: "apns-channel-id")
        box.state.withLock { $0.managementRequests.append((head.method.rawValue, head.uri, channelID)) }
        var answerHeaders: [(String, String)] = []
        if let request = head.headers.first(name: "apns-request-id") { answerHeaders.append(("apns-request-id", request)) }
        switch (head.method, resource) {
        case (.POST, "channels"):
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                let policy = object["message-storage-policy"] as? Int, policy == 0 || policy == 1,
                (object["push-type"] as? String) == "LiveActivity"
            else { throw Refusal(status: 400, reason: "BadMessageStoragePolicy") }
            let id = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            box.state.withLock { $0.channels[id] = policy }
            answerHeaders.append(("apns-channel-id", id))
            return Answer(status: 201, headers: answerHeaders)
        case (.GET, "channels"), (.DELETE, "channels"):
            guard let channelID else { throw Refusal(status: 400, reason: "MissingChannelId") }
            guard let policy = box.state.withLock({ $0.channels[channelID] }) else { throw Refusal(status: 404, reason: "ChannelNotRegistered") }
            if head.method == .DELETE {
                box.state.withLock { _ = $0.channels.removeValue(forKey: channelID) }
                return Answer(status: 204, headers: answerHeaders)
            }
            answerHeaders.append(("apns-channel-id", channelID))
            return Answer(status: 200, headers: answerHeaders, body: Data(#"{"message-storage-policy":\#(policy),"push-type":"LiveActivity"}"#.utf8))
        case (.GET, "all-channels"):
            let ids = box.state.withLock { $0.channels.keys.sorted() }
            let json = try JSONSerialization.data(withJSONObject: ["channels": ids])
            return Answer(status: 200, headers: answerHeaders, body: json)
        case (_, "channels"), (_, "all-channels"):
            throw Refusal(status: 405, reason: "MethodNotAllowed")
        default:
            throw Refusal(status: 404, reason: "BadPath")
        }
    }

    // MARK: Checks

    private func count(_ target: String) throws {
        box.state.withLock { $0.attemptsByTarget[target, default: 0] += 1 }
    }

    private func checkSingleHeaders(_ headers: HTTPHeaders) throws {
        for name in ["apns-push-type", "apns-topic", "apns-priority", "apns-expiration", "apns-id", "authorization"] where headers[name].count > 1 {
            throw Refusal(status: 400, reason: "DuplicateHeaders")
        }
    }

    private func checkPriorityAndExpiration(_ headers: HTTPHeaders) throws {
        if let priority = headers.first(name: "apns-priority"), priority != "5", priority != "10" { throw Refusal(status: 400, reason: "BadPriority") }
        if let expiration = headers.first(name: "apns-expiration"), Int64(expiration).map({ $0 < 0 }) ?? true {
            throw Refusal(status: 400, reason: "BadExpirationDate")
        }
    }

    /// The provider token: a bearer ES256 JWT with our `kid` and `iss`, issued within the last
    /// hour, signed by the team's key.
    private func checkProviderToken(_ headers: HTTPHeaders) throws -> String {
        guard let authorization = headers.first(name: "authorization") else { throw Refusal(status: 403, reason: "MissingProviderToken") }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw Refusal(status: 403, reason: "InvalidProviderToken") }
        let jwt = String(parts[1])
        // A token already verified is not verified again (APNs, too, checks a token once and
        // then only its age), which keeps the stand-in from being what a benchmark measures.
        if let iat = box.state.withLock({ $0.verifiedProviderTokens[jwt] }) {
            return try checkAge(jwt, iat: iat)
        }
        let pieces = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3, let headerData = Self.base64URLDecode(pieces[0]), let claimsData = Self.base64URLDecode(pieces[1]),
            let signatureData = Self.base64URLDecode(pieces[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any]
        else {
            throw Refusal(status: 403, reason: "InvalidProviderToken")
        }
        guard header["alg"] as? String == "ES256", header["kid"] as? String == identity.keyID,
            claims["iss"] as? String == identity.teamID, let iat = claims["iat"] as? Int
        else {
            throw Refusal(status: 403, reason: "InvalidProviderToken")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData), let publicKey = identity.publicKey,
            publicKey.isValidSignature(signature, for: Data((pieces[0] + "." + pieces[1]).utf8))
        else {
            throw Refusal(status: 403, reason: "InvalidProviderToken")
        }
        box.state.withLock { $0.verifiedProviderTokens[jwt] = iat }
        return try checkAge(jwt, iat: iat)
    }

    /// A verified token is refused when it is from the future or older than an hour, or when
    /// the test has expired it.
    private func checkAge(_ jwt: String, iat: Int) throws -> String {
        let age = Date().timeIntervalSince1970 - Double(iat)
        guard age > -60 else { throw Refusal(status: 403, reason: "InvalidProviderToken") }
        let expired = box.state.withLock { state -> Bool in
            state.seenProviderTokens.insert(jwt)
            return state.expireEveryProviderToken || state.expiredProviderTokens.contains(jwt)
        }
        if expired || age > 3600 { throw Refusal(status: 403, reason: "ExpiredProviderToken") }
        return jwt
    }

    /// The Live Activity payload rules: ≤ 4096 bytes, an `aps` with an integer `timestamp`, an
    /// `event`, an object `content-state`, integer dates, `dismissal-date` only on `end`,
    /// `alert` + `attributes-type` + `attributes` on `start`, input keys only on `start`.
    private func checkPayload(_ body: Data) throws -> [String: APNsTestServer.JSONScalar] {
        guard !body.isEmpty else { throw Refusal(status: 400, reason: "PayloadEmpty") }
        guard body.count <= 4096 else { throw Refusal(status: 413, reason: "PayloadTooLarge") }
        func bad(_ why: String) -> Refusal { Refusal(status: 400, reason: "BadLiveActivityPayload: \(why)") }
        guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let aps = root["aps"] as? [String: Any] else {
            throw bad("no aps dictionary")
        }
        let known: Set<String> = [
            "timestamp", "event", "content-state", "stale-date", "dismissal-date", "relevance-score", "alert",
            "attributes-type", "attributes", "input-push-token", "input-push-channel",
        ]
        if let unknown = aps.keys.first(where: { !known.contains($0) }) { throw bad("unknown key \(unknown)") }
        struct Dates: Decodable {
            struct APS: Decodable {
                var timestamp: Int64
                var staleDate: Int64?
                var dismissalDate: Int64?
                enum CodingKeys: String, CodingKey { case timestamp, staleDate = "stale-date", dismissalDate = "dismissal-date" }
            }
            var aps: APS
        }
        guard (try? JSONDecoder().decode(Dates.self, from: body)) != nil else {
            throw bad("timestamp, stale-date and dismissal-date must be integer epoch seconds")
        }
        guard let event = aps["event"] as? String, ["start", "update", "end"].contains(event) else { throw bad("event must be start, update or end") }
        guard aps["content-state"] is [String: Any] else { throw bad("content-state must be an object") }
        if aps["dismissal-date"] != nil, event != "end" { throw bad("dismissal-date only with end") }
        if let score = aps["relevance-score"], !(score is NSNumber) { throw bad("relevance-score must be a number") }
        if event == "start" {
            guard let alert = aps["alert"] as? [String: Any], alert["title"] != nil, alert["body"] != nil else {
                throw bad("start needs an alert with title and body")
            }
            guard aps["attributes-type"] is String, aps["attributes"] is [String: Any] else { throw bad("start needs attributes-type and attributes") }
        } else {
            for key in ["attributes-type", "attributes", "input-push-token", "input-push-channel"] where aps[key] != nil {
                throw bad("\(key) only with start")
            }
        }
        if let alert = aps["alert"] { guard alert is [String: Any] else { throw bad("alert must be an object") } }
        var scalars: [String: APNsTestServer.JSONScalar] = [:]
        for (key, value) in aps {
            switch value {
            case let string as String: scalars[key] = .string(string)
            case is [String: Any]: scalars[key] = .object
            case is [Any]: scalars[key] = .array
            case is NSNull: scalars[key] = .null
            case let number as NSNumber:
                scalars[key] = Int64(exactly: number.doubleValue).map { .integer($0) } ?? .number(number.doubleValue)
            default: scalars[key] = .null
            }
        }
        return scalars
    }

    private func scripted(for target: String) throws {
        let next = box.state.withLock { state -> APNsTestServer.Scripted? in
            guard var queue = state.scripted[target], !queue.isEmpty else { return nil }
            let first = queue.removeFirst()
            state.scripted[target] = queue
            return first
        }
        if let next { throw Refusal(status: next.status, reason: next.reason) }
    }

    private func record(
        method: String, path: String, target: String, head: HTTPRequestHead, body: Data, providerToken: String,
        aps: [String: APNsTestServer.JSONScalar]
    ) {
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        let received = APNsTestServer.Received(
            method: method, path: path, target: target, headers: headers, payload: body,
            providerToken: providerToken, aps: aps, apsKeys: Set(aps.keys))
        box.state.withLock {
            $0.deliveries[target, default: 0] += 1
            if $0.keepsReceived { $0.received.append(received) }
        }
    }

    static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
