public import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL

/// A push provider for Live Activities: sends `liveactivity` pushes to device tokens and to
/// broadcast channels over HTTP/2 with token authentication, and manages channels.
///
/// Requests go through `APNsConnectionPool`: never more streams than the server's
/// SETTINGS_MAX_CONCURRENT_STREAMS on a connection, the rest waiting in order (their time
/// limit starts when their stream opens), more connections when one is full. A request is
/// sent again — with the same `apns-id` — only when APNs cannot have processed it
/// (REFUSED_STREAM, a stream above a GOAWAY's last stream id, a connection that failed
/// before the request was written), or when it answered 5xx; a request that was sent and
/// got no answer is reported, never sent twice.
///
/// The answer decides what happens next: 200 delivered; 410, and 400 BadDeviceToken, mean
/// the token is gone (the caller deletes it); 429 backs that token off (pushes to it are
/// refused until the back-off ends, doubling while 429s continue); 403 ExpiredProviderToken
/// signs a new JWT and tries once more; other 4xx reasons (DeviceTokenNotForTopic,
/// Forbidden, PayloadTooLarge, …) are never retried.
public actor APNsClient {
    /// The configuration the client was made with.
    public nonisolated let configuration: APNsConfiguration
    let pool: APNsConnectionPool
    let now: @Sendable () -> Date
    private var tokens: ProviderTokenCache
    private var backoff: [String: (until: Date, delay: TimeInterval)] = [:]

    /// A client over its own HTTP/2 connections, trusting the system's roots and the
    /// configuration's `extraTrustRoots`.
    public init(configuration: APNsConfiguration, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.configuration = configuration
        self.now = now
        tokens = ProviderTokenCache(
            keyID: configuration.keyID, teamID: configuration.teamID, key: configuration.signingKey,
            lifetime: configuration.tokenLifetime)
        var tls = TLSConfiguration.makeClientConfiguration()
        if let extraTrustRoots = configuration.extraTrustRoots { tls.additionalTrustRoots = [.file(extraTrustRoots)] }
        tls.applicationProtocols = ["h2"]
        pool = APNsConnectionPool(
            tls: try NIOSSLContext(configuration: tls), maximumConnections: configuration.maximumConnections,
            connectTimeout: .seconds(10))
    }

    /// Closes the connections; pushes sent afterwards are refused.
    public func shutdown() async throws {
        await pool.shutdown()
    }

    /// How many provider tokens have been signed (tests check they are reused).
    public var signedTokenCount: Int { tokens.signedCount }

    /// When pushes to `token` may go again after a 429, if it is backed off.
    public func backedOff(_ token: String) -> Date? {
        guard let entry = backoff[token], entry.until > now() else { return nil }
        return entry.until
    }

    // MARK: Device pushes

    /// Sends one push to a device token at `priority` (5 or 10). APNs keeps it for a phone
    /// that is offline until `expiration`, by default the notification's own
    /// (`LiveActivityNotification.expiration(now:)`).
    public func send(
        _ notification: LiveActivityNotification, to deviceToken: String, environment: APNsEnvironment? = nil,
        priority: Int = 10, expiration: Date? = nil, apnsID: UUID = UUID()
    ) async -> PushResult {
        let id = apnsID.uuidString.lowercased()
        let body: Data
        do { body = try notification.payload() } catch {
            return PushResult(kind: .refused, reason: error.description, apnsID: id, attempts: 0, priority: priority)
        }
        if let until = backedOff(deviceToken) {
            return PushResult(
                kind: .refused, reason: "Backing off after TooManyRequests until \(until)", apnsID: id, attempts: 0,
                priority: priority, retryAfter: until)
        }
        let base = configuration.endpoints.device[environment ?? configuration.environment] ?? ""
        var headers = HTTPHeaders()
        headers.add(name: "apns-push-type", value: "liveactivity")
        headers.add(name: "apns-topic", value: configuration.liveActivityTopic)
        headers.add(name: "apns-priority", value: String(priority))
        headers.add(name: "apns-expiration", value: String(LiveActivityNotification.epoch(expiration ?? notification.expiration(now: now()))))
        headers.add(name: "apns-id", value: id)
        headers.add(name: "content-type", value: "application/json")
        let result = await exchange(method: .POST, url: base + "/3/device/" + deviceToken, headers: headers, body: body)
        return outcome(of: result, token: deviceToken, apnsID: id, priority: priority)
    }

    /// Sends one push to every device subscribed to a broadcast channel.
    public func broadcast(
        _ notification: LiveActivityNotification, channelID: String, environment: APNsEnvironment? = nil,
        priority: Int = 10, expiration: Date? = nil, apnsID: UUID = UUID()
    ) async -> PushResult {
        let id = apnsID.uuidString.lowercased()
        let body: Data
        do { body = try notification.payload() } catch {
            return PushResult(kind: .refused, reason: error.description, apnsID: id, attempts: 0, priority: priority)
        }
        let base = configuration.endpoints.broadcast[environment ?? configuration.environment] ?? ""
        var headers = HTTPHeaders()
        headers.add(name: "apns-channel-id", value: channelID)
        headers.add(name: "apns-push-type", value: "liveactivity")
        headers.add(name: "apns-priority", value: String(priority))
        headers.add(name: "apns-expiration", value: String(LiveActivityNotification.epoch(expiration ?? notification.expiration(now: now()))))
        headers.add(name: "apns-request-id", value: id)
        headers.add(name: "content-type", value: "application/json")
        let result = await exchange(method: .POST, url: base + "/4/broadcasts/apps/" + configuration.bundleID, headers: headers, body: body)
        return outcome(of: result, token: nil, apnsID: id, priority: priority)
    }

    // MARK: Channels

    /// The settings APNs keeps for a channel.
    public struct ChannelSettings: Sendable, Hashable, Codable {
        /// `message-storage-policy`: 0 keeps no message for offline devices, 1 keeps the latest.
        public var messageStoragePolicy: Int
        /// `push-type`: `LiveActivity`.
        public var pushType: String
        enum CodingKeys: String, CodingKey {
            case messageStoragePolicy = "message-storage-policy"
            case pushType = "push-type"
        }
    }

    /// Creates a broadcast channel; returns its id (`apns-channel-id`).
    public func createChannel(storagePolicy: Int = 0, environment: APNsEnvironment? = nil) async throws(APNsError) -> String {
        guard storagePolicy == 0 || storagePolicy == 1 else { throw .invalidNotification("message-storage-policy is 0 or 1") }
        let body = Data(#"{"message-storage-policy":\#(storagePolicy),"push-type":"LiveActivity"}"#.utf8)
        let response = try await management(.POST, "channels", channelID: nil, body: body, environment: environment)
        guard response.status == 201, let id = response.headers.first(name: "apns-channel-id") else {
            throw .rejected(status: response.status, reason: response.reason ?? "no apns-channel-id in the answer")
        }
        return id
    }

    /// The settings of channel `id`; throws `.rejected` when APNs does not answer 200 with them.
    public func channel(id: String, environment: APNsEnvironment? = nil) async throws(APNsError) -> ChannelSettings {
        let response = try await management(.GET, "channels", channelID: id, body: nil, environment: environment)
        guard response.status == 200, let settings = try? JSONDecoder().decode(ChannelSettings.self, from: response.body) else {
            throw .rejected(status: response.status, reason: response.reason)
        }
        return settings
    }

    /// Deletes channel `id`; throws `.rejected` unless APNs answers 200 or 204.
    public func deleteChannel(id: String, environment: APNsEnvironment? = nil) async throws(APNsError) {
        let response = try await management(.DELETE, "channels", channelID: id, body: nil, environment: environment)
        guard response.status == 204 || response.status == 200 else { throw .rejected(status: response.status, reason: response.reason) }
    }

    /// The IDs of the app's channels; throws `.rejected` when APNs does not answer 200 with a list.
    public func listChannels(environment: APNsEnvironment? = nil) async throws(APNsError) -> [String] {
        struct List: Decodable { var channels: [String] }
        let response = try await management(.GET, "all-channels", channelID: nil, body: nil, environment: environment)
        guard response.status == 200, let list = try? JSONDecoder().decode(List.self, from: response.body) else {
            throw .rejected(status: response.status, reason: response.reason)
        }
        return list.channels
    }

    private func management(
        _ method: HTTPMethod, _ resource: String, channelID: String?, body: Data?,
        environment: APNsEnvironment?
    ) async throws(APNsError) -> Answer {
        let base = configuration.endpoints.management[environment ?? configuration.environment] ?? ""
        var headers = HTTPHeaders()
        if let channelID { headers.add(name: "apns-channel-id", value: channelID) }
        headers.add(name: "apns-request-id", value: UUID().uuidString.lowercased())
        if body != nil { headers.add(name: "content-type", value: "application/json") }
        let result = await exchange(method: method, url: base + "/1/apps/\(configuration.bundleID)/\(resource)", headers: headers, body: body)
        switch result.answer {
        case .success(let answer): return answer
        case .failure(let error): throw error
        }
    }

    // MARK: The exchange and its retries

    typealias Answer = APNsWireAnswer

    struct Exchange {
        var answer: Result<Answer, APNsError>
        var attempts: Int
    }

    /// Sends the request, rotating an expired provider token once, sending again what APNs
    /// cannot have processed and what it answered with a 5xx (with back-off); other answers
    /// come back as they are. The headers — `apns-id` with them — are the same on every try.
    private func exchange(method: HTTPMethod, url: String, headers: HTTPHeaders, body: Data?) async -> Exchange {
        guard let origin = APNsOrigin(baseURL: url), let path = URLComponents(string: url)?.percentEncodedPath else {
            return Exchange(answer: .failure(.transport(APNsTransportError.notHTTPS(url).description)), attempts: 0)
        }
        let fields = headers.map { ($0.name, $0.value) }
        var attempts = 0
        var rotated = false
        var delay = configuration.retryDelay
        while true {
            attempts += 1
            let token: ProviderToken
            do { token = try tokens.token(now: now()) } catch {
                return Exchange(answer: .failure(.transport("Could not sign the provider token: \(error)")), attempts: attempts)
            }
            let request = APNsWireRequest(
                method: method, path: path.isEmpty ? "/" : path, headers: fields + [("authorization", "bearer " + token.value)],
                body: body)
            let answer: Answer
            switch await pool.execute(request, on: origin, timeout: configuration.requestTimeout) {
            case .answered(let value):
                answer = value
            case .notProcessed(let reason):
                if attempts < configuration.maximumAttempts {
                    try? await Task.sleep(for: delay)
                    delay *= 2
                    continue
                }
                return Exchange(answer: .failure(.transport(reason)), attempts: attempts)
            case .unknown(let reason):
                return Exchange(answer: .failure(.transport(reason)), attempts: attempts)
            }
            if answer.status == 403, answer.reason == "ExpiredProviderToken", !rotated {
                rotated = true
                if let renewed = try? tokens.rotate(replacing: token, now: now()), renewed != token { continue }
            }
            if answer.reason == "TooManyProviderTokenUpdates" { tokens.holdUpdates(now: now()) }
            if answer.status >= 500, attempts < configuration.maximumAttempts {
                try? await Task.sleep(for: delay)
                delay *= 2
                continue
            }
            return Exchange(answer: .success(answer), attempts: attempts)
        }
    }

    private func outcome(of exchange: Exchange, token: String?, apnsID: String, priority: Int) -> PushResult {
        let answer: Answer
        switch exchange.answer {
        case .failure(let error):
            return PushResult(kind: .failed, reason: error.description, apnsID: apnsID, attempts: exchange.attempts, priority: priority)
        case .success(let value): answer = value
        }
        let id = answer.headers.first(name: "apns-id") ?? answer.headers.first(name: "apns-request-id") ?? apnsID
        var result = PushResult(kind: .delivered, status: answer.status, reason: answer.reason, apnsID: id, attempts: exchange.attempts, priority: priority)
        switch answer.status {
        case 200:
            if let token { backoff[token] = nil }
        case 410:
            result.kind = .unregistered
        case 400 where answer.reason == "BadDeviceToken" && token != nil:
            // The token is not a valid device token for this environment: as gone as a 410.
            result.kind = .unregistered
        case _ where answer.reason == "TooManyProviderTokenUpdates":
            // About the provider's token, not this device: no device is backed off.
            result.kind = .failed
        case 429:
            result.kind = .throttled
            if let token {
                let delay = min(3600, (backoff[token]?.delay).map { $0 * 2 } ?? configuration.throttleDelay)
                let until = now().addingTimeInterval(delay)
                backoff[token] = (until, delay)
                result.retryAfter = until
            }
        case 500...:
            result.kind = .failed
        default:
            result.kind = .rejected
        }
        return result
    }
}
