import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL

/// A push provider for Live Activities: sends `liveactivity` pushes to device tokens and to
/// broadcast channels over HTTP/2 with token authentication, and manages channels.
///
/// The answer decides what happens next: 200 delivered; 410 means the token is gone (the
/// caller deletes it); 429 backs that token off (pushes to it are refused until the back-off
/// ends, doubling while 429s continue); 403 ExpiredProviderToken signs a new JWT and tries
/// once more; other 4xx reasons (BadDeviceToken, DeviceTokenNotForTopic, Forbidden,
/// PayloadTooLarge, Unregistered, …) are never retried; 5xx and network failures are retried
/// with exponential back-off up to `maximumAttempts`.
public actor APNsClient {
    public nonisolated let configuration: APNsConfiguration
    let http: HTTPClient
    private let ownsHTTPClient: Bool
    let now: @Sendable () -> Date
    private var tokens: ProviderTokenCache
    private var backoff: [String: (until: Date, delay: TimeInterval)] = [:]

    /// A client over its own HTTP/2 connection pool (trusting `extraTrustRoots` besides the
    /// system's), or over `http` when given.
    public init(configuration: APNsConfiguration, http: HTTPClient? = nil, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.configuration = configuration
        self.now = now
        tokens = ProviderTokenCache(
            keyID: configuration.keyID, teamID: configuration.teamID, key: configuration.signingKey,
            lifetime: configuration.tokenLifetime)
        if let http {
            self.http = http
            ownsHTTPClient = false
        } else {
            self.http = try Self.makeHTTPClient(trusting: configuration.extraTrustRoots)
            ownsHTTPClient = true
        }
    }

    /// An HTTP client that speaks HTTP/2 to APNs (ALPN), trusting the system's roots and
    /// the certificates in the PEM file `extraTrustRoots`.
    public static func makeHTTPClient(trusting extraTrustRoots: String? = nil) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let extraTrustRoots { tls.additionalTrustRoots = [.file(extraTrustRoots)] }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, timeout: .init(connect: .seconds(10), read: .seconds(30)))
        configuration.httpVersion = .automatic
        // Marquee traces nothing: without this, every push builds a no-op span and its
        // attributes (about 5 % of the client's time per push in `make bench`).
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    public func shutdown() async throws {
        if ownsHTTPClient { try await http.shutdown() }
    }

    /// How many provider tokens have been signed (tests check they are reused).
    public var signedTokenCount: Int { tokens.signedCount }

    /// When pushes to `token` may go again after a 429, if it is backed off.
    public func backedOff(_ token: String) -> Date? {
        guard let entry = backoff[token], entry.until > now() else { return nil }
        return entry.until
    }

    // MARK: Device pushes

    /// Sends one push to a device token at `priority` (5 or 10); `expiration` nil means APNs
    /// does not store it (`apns-expiration: 0`).
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
        headers.add(name: "apns-expiration", value: String(expiration.map(LiveActivityNotification.epoch) ?? 0))
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
        headers.add(name: "apns-expiration", value: String(expiration.map(LiveActivityNotification.epoch) ?? 0))
        headers.add(name: "apns-request-id", value: id)
        headers.add(name: "content-type", value: "application/json")
        let result = await exchange(method: .POST, url: base + "/4/broadcasts/apps/" + configuration.bundleID, headers: headers, body: body)
        return outcome(of: result, token: nil, apnsID: id, priority: priority)
    }

    // MARK: Channels

    /// The settings APNs keeps for a channel.
    public struct ChannelSettings: Sendable, Hashable, Codable {
        public var messageStoragePolicy: Int
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

    public func channel(id: String, environment: APNsEnvironment? = nil) async throws(APNsError) -> ChannelSettings {
        let response = try await management(.GET, "channels", channelID: id, body: nil, environment: environment)
        guard response.status == 200, let settings = try? JSONDecoder().decode(ChannelSettings.self, from: response.body) else {
            throw .rejected(status: response.status, reason: response.reason)
        }
        return settings
    }

    public func deleteChannel(id: String, environment: APNsEnvironment? = nil) async throws(APNsError) {
        let response = try await management(.DELETE, "channels", channelID: id, body: nil, environment: environment)
        guard response.status == 204 || response.status == 200 else { throw .rejected(status: response.status, reason: response.reason) }
    }

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

    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
        /// APNs' reason, from the JSON body it sends with every answer but 200 (an empty body
        /// is not parsed: a failed parse costs more than the rest of a push's bookkeeping).
        var reason: String? {
            guard !body.isEmpty else { return nil }
            return (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["reason"] as? String
        }
    }

    struct Exchange {
        var answer: Result<Answer, APNsError>
        var attempts: Int
    }

    /// Sends the request, rotating an expired provider token once and retrying 5xx and
    /// network failures with back-off; other answers come back as they are.
    private func exchange(method: HTTPMethod, url: String, headers: HTTPHeaders, body: Data?) async -> Exchange {
        var attempts = 0
        var rotated = false
        var delay = configuration.retryDelay
        while true {
            attempts += 1
            let token: ProviderToken
            do { token = try tokens.token(now: now()) } catch {
                return Exchange(answer: .failure(.transport("Could not sign the provider token: \(error)")), attempts: attempts)
            }
            var request = HTTPClientRequest(url: url)
            request.method = method
            request.headers = headers
            request.headers.add(name: "authorization", value: "bearer " + token.value)
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            let answer: Answer
            do {
                let response = try await http.execute(request, timeout: .seconds(30))
                let bytes = try await response.body.collect(upTo: 64 * 1024)
                answer = Answer(status: Int(response.status.code), headers: response.headers, body: Data(buffer: bytes))
            } catch {
                if attempts < configuration.maximumAttempts {
                    try? await Task.sleep(for: delay)
                    delay *= 2
                    continue
                }
                return Exchange(answer: .failure(.transport(String(describing: error))), attempts: attempts)
            }
            if answer.status == 403, answer.reason == "ExpiredProviderToken", !rotated {
                rotated = true
                _ = try? tokens.rotate(replacing: token, now: now())
                continue
            }
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
