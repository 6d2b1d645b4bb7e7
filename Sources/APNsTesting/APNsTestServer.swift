public import Crypto
public import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHPACK
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// A local stand-in for APNs: HTTP/2 over TLS on 127.0.0.1 with a certificate from a test
/// authority. It checks what APNs checks — the provider token's ES256 signature against the
/// team's public key, its `kid`, `iss` and age; `apns-push-type`, `apns-topic`,
/// `apns-priority`, `apns-expiration`, `apns-id`; the payload's size — and the Live Activity
/// payload rules ActivityKit applies on the device, and answers with APNs' own status codes
/// and reasons. Tests script answers per token (410 Unregistered, 429 TooManyRequests, 5xx,
/// …) and read back what arrived, in order. It also serves the broadcast channel API.
public final class APNsTestServer: Sendable {
    public struct Identity: Sendable {
        public var keyID: String
        public var teamID: String
        public var bundleID: String
        /// The team key's public half, as raw bytes (swift-crypto's key type is not `Sendable`).
        public var publicKeyBytes: Data
        public var publicKey: P256.Signing.PublicKey? { try? P256.Signing.PublicKey(rawRepresentation: publicKeyBytes) }
        public init(keyID: String, teamID: String, bundleID: String, publicKey: P256.Signing.PublicKey) {
            self.keyID = keyID
            self.teamID = teamID
            self.bundleID = bundleID
            self.publicKeyBytes = publicKey.rawRepresentation
        }
    }

    /// One request APNs accepted.
    public struct Received: Sendable, Hashable {
        public var method: String
        public var path: String
        /// The device token, or the channel id of a broadcast.
        public var target: String
        public var headers: [String: String]
        public var payload: Data
        public var providerToken: String
        public var aps: [String: JSONScalar]
        public var apsKeys: Set<String>
    }

    /// The scalars and shapes of `aps`, enough to assert on.
    public enum JSONScalar: Sendable, Hashable {
        case integer(Int64), number(Double), string(String), bool(Bool), object, array, null
    }

    /// An answer a test wants for the next request to a token or channel.
    public struct Scripted: Sendable, Hashable {
        public var status: Int
        public var reason: String
        public init(_ status: Int, _ reason: String) {
            self.status = status
            self.reason = reason
        }
    }

    /// How fast the stand-in answers, like an APNs that throttles a provider: at most
    /// `requestsPerSecond` requests are processed (the rest wait their turn, unanswered), and
    /// a connection may have at most `maxConcurrentStreams` streams open
    /// (SETTINGS_MAX_CONCURRENT_STREAMS; streams above it are refused).
    public struct Throttle: Sendable, Hashable {
        public var requestsPerSecond: Int
        public var maxConcurrentStreams: Int
        public init(requestsPerSecond: Int, maxConcurrentStreams: Int) {
            self.requestsPerSecond = max(1, requestsPerSecond)
            self.maxConcurrentStreams = max(1, maxConcurrentStreams)
        }
    }

    struct State {
        var received: [Received] = []
        /// Pushes accepted per device token or channel (a second one is a duplicate).
        var deliveries: [String: Int] = [:]
        /// When the next request may be processed, under a throttle.
        var nextSlot: NIODeadline = .uptimeNanoseconds(0)
        var refused: [(status: Int, reason: String, path: String)] = []
        var attemptsByTarget: [String: Int] = [:]
        var scripted: [String: [Scripted]] = [:]
        var expiredProviderTokens: Set<String> = []
        var expireEveryProviderToken = false
        var seenProviderTokens: Set<String> = []
        var verifiedProviderTokens: [String: Int] = [:]
        var channels: [String: Int] = [:]
        var managementRequests: [(method: String, path: String, channelID: String?)] = []
        var keepsReceived = true
    }

    public let identity: Identity
    public let authority: TestCertificateAuthority
    public let port: Int
    let box: StateBox
    private let channel: any Channel

    public var baseURL: String { "https://127.0.0.1:\(port)" }

    private init(identity: Identity, authority: TestCertificateAuthority, port: Int, box: StateBox, channel: any Channel) {
        self.identity = identity
        self.authority = authority
        self.port = port
        self.box = box
        self.channel = channel
    }

    /// Starts a server on a free loopback port with a new test certificate authority.
    public static func start(
        identity: Identity, authority: TestCertificateAuthority? = nil, port: Int = 0, throttle: Throttle? = nil
    ) async throws -> APNsTestServer {
        let authority = if let authority { authority } else { try await TestCertificateAuthority.make() }
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(authority.serverCertificateFile).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: authority.serverKeyFile, format: .pem)))
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let box = StateBox(identity: identity, throttle: throttle)
        let settings =
            nioDefaultSettings.filter { $0.parameter != .maxConcurrentStreams }
            + [HTTP2Setting(parameter: .maxConcurrentStreams, value: throttle?.maxConcurrentStreams ?? 1000)]
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.configureHTTP2Pipeline(
                        mode: .server,
                        initialLocalSettings: settings,
                        inboundStreamInitializer: { stream in
                            stream.eventLoop.makeCompletedFuture {
                                try stream.pipeline.syncOperations.addHandler(APNsRequestHandler(box: box))
                            }
                        }
                    ).map { _ in }
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
        return APNsTestServer(identity: identity, authority: authority, port: channel.localAddress?.port ?? port, box: box, channel: channel)
    }

    public func stop() async throws {
        try await channel.close()
    }

    // MARK: What tests read

    public var received: [Received] { box.state.withLock { $0.received } }
    public var refusals: [(status: Int, reason: String, path: String)] { box.state.withLock { $0.refused } }
    /// Requests that reached the server for a token or channel, answered any way.
    public func attempts(for target: String) -> Int { box.state.withLock { $0.attemptsByTarget[target] ?? 0 } }
    /// Pushes accepted for a token or channel: exactly one per push sent once.
    public func deliveries(for target: String) -> Int { box.state.withLock { $0.deliveries[target] ?? 0 } }
    /// Pushes accepted for every token and channel.
    public var deliveryCounts: [String: Int] { box.state.withLock { $0.deliveries } }
    public var distinctProviderTokens: Int { box.state.withLock { $0.seenProviderTokens.count } }
    public var managementRequests: [(method: String, path: String, channelID: String?)] { box.state.withLock { $0.managementRequests } }
    public var channelIDs: [String] { box.state.withLock { Array($0.channels.keys) } }

    // MARK: What tests arrange

    /// The next requests to `target` get these answers, in order (after the usual checks pass).
    public func script(_ answers: [Scripted], for target: String) {
        box.state.withLock { $0.scripted[target, default: []] += answers }
    }

    /// Every provider token seen so far is answered with 403 ExpiredProviderToken from now on.
    public func expireSeenProviderTokens() {
        box.state.withLock { $0.expiredProviderTokens.formUnion($0.seenProviderTokens) }
    }

    /// Every provider token, old or new, is answered with 403 ExpiredProviderToken.
    public func expireEveryProviderToken(_ on: Bool = true) {
        box.state.withLock { $0.expireEveryProviderToken = on }
    }

    /// For benchmarks: count requests but do not keep them.
    public func keepReceived(_ keep: Bool) {
        box.state.withLock { $0.keepsReceived = keep }
    }

    public func reset() {
        box.state.withLock { $0 = State() }
    }
}

/// The server's identity and state, shared by every stream handler.
final class StateBox: Sendable {
    let identity: APNsTestServer.Identity
    let throttle: APNsTestServer.Throttle?
    let state = Mutex(APNsTestServer.State())
    init(identity: APNsTestServer.Identity, throttle: APNsTestServer.Throttle? = nil) {
        self.identity = identity
        self.throttle = throttle
    }

    /// When a request that arrived now may be processed: now without a throttle, else the
    /// next free slot at the throttle's rate.
    func slot() -> NIODeadline? {
        guard let throttle else { return nil }
        let interval = TimeAmount.nanoseconds(1_000_000_000 / Int64(throttle.requestsPerSecond))
        return state.withLock { state in
            let slot = max(NIODeadline.now(), state.nextSlot)
            state.nextSlot = slot + interval
            return slot
        }
    }
}

/// One HTTP/2 stream, read and written as HTTP/2 frames (as APNs does: an answer without a
/// body is a single HEADERS frame that ends the stream, which some clients rely on): collects
/// the request, has `APNsRules` judge it, writes the answer.
final class APNsRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    let box: StateBox
    var head: HTTPRequestHead?
    var body = ByteBuffer()

    init(box: StateBox) { self.box = box }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var ended = false
        switch unwrapInboundIn(data) {
        case .headers(let frame):
            if head == nil {
                var regular = HTTPHeaders()
                var method = "GET"
                var path = "/"
                for (name, value, _) in frame.headers {
                    switch name {
                    case ":method": method = value
                    case ":path": path = value
                    case _ where name.hasPrefix(":"): break
                    default: regular.add(name: name, value: value)
                    }
                }
                head = HTTPRequestHead(version: .http2, method: HTTPMethod(rawValue: method), uri: path, headers: regular)
            }
            ended = frame.endStream
        case .data(let frame):
            if case .byteBuffer(var chunk) = frame.data { body.writeBuffer(&chunk) }
            ended = frame.endStream
        default:
            break
        }
        guard ended, let head else { return }
        if let slot = box.slot() {
            let body = Data(buffer: body)
            context.eventLoop.assumeIsolated().scheduleTask(deadline: slot) { [self] in
                // A stream the client gave up on before its turn is not processed.
                guard context.channel.isActive else { return }
                answer(head: head, body: body, context: context)
            }
        } else {
            answer(head: head, body: Data(buffer: body), context: context)
        }
    }

    private func answer(head: HTTPRequestHead, body: Data, context: ChannelHandlerContext) {
        let answer = APNsRules(box: box).judge(head: head, body: body)
        var headers = HPACKHeaders()
        headers.add(name: ":status", value: String(answer.status))
        for (name, value) in answer.headers { headers.add(name: name, value: value) }
        if !answer.body.isEmpty {
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(answer.body.count))
        }
        context.write(wrapOutboundOut(.headers(.init(headers: headers, endStream: answer.body.isEmpty))), promise: nil)
        if !answer.body.isEmpty {
            context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(ByteBuffer(bytes: answer.body)), endStream: true))), promise: nil)
        }
        context.flush()
    }
}
