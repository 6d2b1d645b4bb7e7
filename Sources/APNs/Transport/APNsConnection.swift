import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHPACK
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// One HTTP/2 connection over TLS to an APNs origin.
///
/// It knows what the server said about it — how many streams may be open at once
/// (SETTINGS_MAX_CONCURRENT_STREAMS), whether it is going away (GOAWAY and its last stream
/// id), whether it closed — so that the pool never opens more streams than the server allows
/// and can tell which requests the server cannot have processed.
final class APNsConnection: Sendable {
    /// What the server said about the connection.
    struct Status: Sendable {
        /// The server's SETTINGS_MAX_CONCURRENT_STREAMS, once its first SETTINGS arrived.
        var maxConcurrentStreams: Int?
        /// The last stream id of the GOAWAY, once one arrived: no new stream may start, and
        /// streams above it were not processed.
        var goAwayLastStreamID: Int?
        var closed = false

        /// True while new streams may start on the connection.
        var isUsable: Bool { !closed && goAwayLastStreamID == nil && maxConcurrentStreams != nil }
    }

    /// The number of streams assumed when the server's SETTINGS name no limit (RFC 9113 calls
    /// it unlimited; APNs names one), and the most ever used on one connection.
    static let defaultConcurrentStreams = 100
    static let mostConcurrentStreams = 1000

    let origin: APNsOrigin
    let status: Mutex<Status>
    private let channelBox: Mutex<(any Channel)?>
    private let multiplexerBox: Mutex<NIOHTTP2Handler.StreamMultiplexer?>

    private init(origin: APNsOrigin) {
        self.origin = origin
        status = Mutex(Status())
        channelBox = Mutex(nil)
        multiplexerBox = Mutex(nil)
    }

    /// The current status.
    var currentStatus: Status { status.withLock { $0 } }

    /// Opens a connection and waits for the server's first SETTINGS (which names the stream
    /// limit). `onChange` is called when the server raises or lowers the limit, sends GOAWAY,
    /// or the connection closes.
    static func connect(
        to origin: APNsOrigin, tls: NIOSSLContext, timeout: TimeAmount, onChange: @escaping @Sendable () -> Void
    ) async throws -> APNsConnection {
        let connection = APNsConnection(origin: origin)
        let serverHostname = origin.isIPAddress ? nil : origin.host
        let (channel, multiplexer, ready) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .connect(host: origin.host, port: origin.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
                    let multiplexer = try sync.configureHTTP2Pipeline(
                        mode: .client, connectionConfiguration: .init(), streamConfiguration: .init(),
                        inboundStreamInitializer: { stream in stream.close() })
                    let ready = channel.eventLoop.makePromise(of: Void.self)
                    try sync.addHandler(APNsConnectionWatcher(connection: connection, ready: ready, onChange: onChange))
                    return (channel, multiplexer, ready.futureResult)
                }
            }
        connection.channelBox.withLock { $0 = channel }
        connection.multiplexerBox.withLock { $0 = multiplexer }
        let limit = channel.eventLoop.scheduleTask(in: timeout) {
            channel.close(promise: nil)
        }
        do {
            try await ready.get()
            limit.cancel()
        } catch {
            limit.cancel()
            channel.close(promise: nil)
            throw error
        }
        return connection
    }

    /// Sends one request on a new stream and waits for its outcome. `timeout` counts only
    /// from the moment the stream opens, never time spent waiting for a stream.
    func perform(_ request: APNsWireRequest, timeout: TimeAmount) async -> APNsWireOutcome {
        guard let channel = channelBox.withLock({ $0 }), let multiplexer = multiplexerBox.withLock({ $0 }) else {
            return .notProcessed("the connection to APNs is not open")
        }
        let promise = channel.eventLoop.makePromise(of: APNsWireOutcome.self)
        let origin = origin
        multiplexer.createStreamChannel { stream in
            stream.eventLoop.makeCompletedFuture {
                try stream.pipeline.syncOperations.addHandler(
                    APNsStreamHandler(request: request, origin: origin, connection: self, timeout: timeout, outcome: promise))
            }
        }.whenFailure { error in
            promise.succeed(.notProcessed("APNs' connection could not open a stream: \(error)"))
        }
        return (try? await promise.futureResult.get()) ?? .unknown("the stream ended without an outcome")
    }

    /// Closes the connection (in-flight requests end as not answered).
    func close() async {
        guard let channel = channelBox.withLock({ $0 }) else { return }
        try? await channel.close()
    }
}

/// Sits after the HTTP/2 handler and reads what the server says about the whole connection:
/// SETTINGS (the stream limit) and GOAWAY; notes when the connection closes.
final class APNsConnectionWatcher: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame

    let connection: APNsConnection
    let ready: EventLoopPromise<Void>
    let onChange: @Sendable () -> Void

    init(connection: APNsConnection, ready: EventLoopPromise<Void>, onChange: @escaping @Sendable () -> Void) {
        self.connection = connection
        self.ready = ready
        self.onChange = onChange
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .settings(.settings(let settings)):
            let named = settings.last { $0.parameter == .maxConcurrentStreams }?.value
            connection.status.withLock { status in
                if let named {
                    status.maxConcurrentStreams = min(named, APNsConnection.mostConcurrentStreams)
                } else if status.maxConcurrentStreams == nil {
                    status.maxConcurrentStreams = APNsConnection.defaultConcurrentStreams
                }
            }
            ready.succeed(())
            onChange()
        case .goAway(let lastStreamID, _, _):
            connection.status.withLock { $0.goAwayLastStreamID = Int(lastStreamID) }
            onChange()
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.status.withLock { $0.closed = true }
        ready.fail(APNsTransportError.closedBeforeSettings)
        onChange()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        ready.fail(error)
        context.close(promise: nil)
    }
}

/// Why a connection to APNs could not be used.
enum APNsTransportError: Error, CustomStringConvertible {
    case closedBeforeSettings
    case notHTTPS(String)

    var description: String {
        switch self {
        case .closedBeforeSettings: "the connection closed before APNs sent its HTTP/2 settings"
        case .notHTTPS(let url): "\(url) is not an https URL with a host"
        }
    }
}

/// One request on its own HTTP/2 stream: writes it, collects the answer, and decides — when
/// no answer comes — whether APNs can have processed it.
final class APNsStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    let request: APNsWireRequest
    let origin: APNsOrigin
    let connection: APNsConnection
    let timeout: TimeAmount
    let outcome: EventLoopPromise<APNsWireOutcome>
    private var started = false
    private var finished = false
    /// True once the whole request (through END_STREAM) is in the socket.
    private var written = false
    private var streamID: Int?
    private var status: Int?
    private var headers = HTTPHeaders()
    private var body = ByteBuffer()
    private var limit: Scheduled<Void>?

    init(
        request: APNsWireRequest, origin: APNsOrigin, connection: APNsConnection, timeout: TimeAmount,
        outcome: EventLoopPromise<APNsWireOutcome>
    ) {
        self.request = request
        self.origin = origin
        self.connection = connection
        self.timeout = timeout
        self.outcome = outcome
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    private func start(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        let loop = context.eventLoop.assumeIsolated()
        limit = loop.scheduleTask(in: timeout) { [self] in
            let seconds = timeout.nanoseconds / 1_000_000_000
            finish(
                written
                    ? .unknown("APNs did not answer within \(seconds) s; not sent again, since APNs may have delivered it")
                    : .notProcessed("the request could not be written within \(seconds) s"),
                context: context)
        }
        var fields = HPACKHeaders()
        fields.add(name: ":method", value: request.method.rawValue)
        fields.add(name: ":scheme", value: "https")
        fields.add(name: ":path", value: request.path)
        fields.add(name: ":authority", value: origin.port == 443 ? origin.host : origin.description)
        for (name, value) in request.headers { fields.add(name: name, value: value) }
        if let body = request.body { fields.add(name: "content-length", value: String(body.count)) }
        let done = context.eventLoop.makePromise(of: Void.self)
        if let body = request.body {
            context.write(wrapOutboundOut(.headers(.init(headers: fields, endStream: false))), promise: nil)
            context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(ByteBuffer(bytes: body)), endStream: true))), promise: done)
        } else {
            context.write(wrapOutboundOut(.headers(.init(headers: fields, endStream: true))), promise: done)
        }
        context.flush()
        done.futureResult.assumeIsolated().whenSuccess { [self] in
            written = true
            streamID = (try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)).map { Int($0) }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .headers(let frame):
            var code: Int?
            for (name, value, _) in frame.headers {
                if name == ":status" {
                    code = Int(value)
                } else if !name.hasPrefix(":") {
                    headers.add(name: name, value: value)
                }
            }
            if let code, code >= 200 { status = code }
            if frame.endStream { answer(context: context) }
        case .data(let frame):
            if case .byteBuffer(var chunk) = frame.data, body.readableBytes + chunk.readableBytes <= 64 * 1024 {
                body.writeBuffer(&chunk)
            }
            if frame.endStream { answer(context: context) }
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let closed = error as? NIOHTTP2Errors.StreamClosed, closed.errorCode == .refusedStream {
            finish(.notProcessed("APNs refused the stream (REFUSED_STREAM)"), context: context)
        } else {
            finish(unanswered("the stream failed: \(error)"), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(unanswered("the connection closed before APNs answered"), context: context)
        context.fireChannelInactive()
    }

    private func answer(context: ChannelHandlerContext) {
        guard let status else {
            finish(unanswered("APNs ended the stream without a status"), context: context)
            return
        }
        finish(.answered(APNsWireAnswer(status: status, headers: headers, body: Data(buffer: body))), context: context)
    }

    /// No answer: APNs cannot have processed what was never completely written, or a stream
    /// above a GOAWAY's last stream id; anything else it may have.
    private func unanswered(_ reason: String) -> APNsWireOutcome {
        if !written { return .notProcessed(reason + " (before the request was completely written)") }
        if let last = connection.currentStatus.goAwayLastStreamID, let streamID, streamID > last {
            return .notProcessed("APNs is closing the connection (GOAWAY) and did not take stream \(streamID)")
        }
        return .unknown(reason + "; not sent again, since APNs may have delivered it")
    }

    private func finish(_ result: APNsWireOutcome, context: ChannelHandlerContext) {
        guard !finished else { return }
        finished = true
        limit?.cancel()
        outcome.succeed(result)
        if case .answered = result { return }
        context.close(promise: nil)
    }
}
