public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An HTTP/1.1 server on 127.0.0.1 for tests of HLS, downloads and interstitials: serves
/// playlists and segments from memory or from a folder, honours single byte ranges, and
/// plays scripted faults (a delay, an error status, a dropped connection, a request that is
/// never answered) so each test need not build a server of its own.
///
/// ```swift
/// let server = try await LoopbackHLSServer.start(files: ["media.m3u8": playlist, "s0.ts": bytes])
/// defer { Task { try? await server.stop() } }
/// server.script("s0.ts", [.status(500), .dropConnection])  // the next two requests fail
/// ```
public final class LoopbackHLSServer: Sendable {
    /// What one request to a path meets instead of (or before) its file.
    public enum Fault: Sendable, Equatable {
        /// Answer after this long (real time; the event loop is not blocked).
        case delay(Duration)
        /// Answer with this status and an empty body.
        case status(Int)
        /// Close the connection without answering.
        case dropConnection
        /// Keep the connection open and never answer.
        case stall
    }

    private struct State {
        var files: [String: [UInt8]] = [:]
        var scripts: [String: [Fault]] = [:]
        var always: [String: Fault] = [:]
        var requests: [String] = []
    }

    public let port: Int
    /// Served for paths not in memory (nil: memory only).
    public let folder: URL?
    private let state: Mutex<State>
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    /// Starts a server with `files` (path without the leading slash → contents), and `folder`
    /// for any other path.
    public static func start(files: [String: Data] = [:], folder: URL? = nil) async throws -> LoopbackHLSServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let box = HandlerBox()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(RequestHandler(respond: box.respond))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = LoopbackHLSServer(
            port: channel.localAddress?.port ?? 0, folder: folder, files: files.mapValues { Array($0) }, channel: channel, group: group)
        box.server.withLock { $0 = server }
        return server
    }

    private init(port: Int, folder: URL?, files: [String: [UInt8]], channel: any Channel, group: MultiThreadedEventLoopGroup) {
        self.port = port
        self.folder = folder
        self.state = Mutex(State(files: files))
        self.channel = channel
        self.group = group
    }

    /// The server's address of `path` (`"media.m3u8"` → `http://127.0.0.1:PORT/media.m3u8`).
    public func url(_ path: String = "") -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// Adds or replaces a file in memory.
    public func setFile(_ path: String, _ contents: Data) { state.withLock { $0.files[path] = Array(contents) } }

    /// The next requests to `path` meet `faults`, one each, in order; later ones are served.
    public func script(_ path: String, _ faults: [Fault]) { state.withLock { $0.scripts[path, default: []] += faults } }

    /// Every request to `path` meets `fault` until it is cleared with nil.
    public func setFault(_ path: String, _ fault: Fault?) { state.withLock { $0.always[path] = fault } }

    /// The paths requested so far, in order (without the leading slash).
    public var requests: [String] { state.withLock { $0.requests } }

    /// How many times `path` was requested.
    public func requestCount(_ path: String) -> Int { state.withLock { $0.requests.filter { $0 == path }.count } }

    /// Closes the listener and every connection, and ends the server's thread.
    public func stop() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }

    // MARK: Answering

    /// What the handler does with one request.
    enum Answer {
        case respond(status: Int, headers: [(String, String)], body: [UInt8], after: Duration?)
        case drop(after: Duration?)
        case stall
    }

    fileprivate func answer(path rawPath: String, method: HTTPMethod, range: String?) -> Answer {
        let path = String((rawPath.split(separator: "?", maxSplits: 1).first ?? "").drop { $0 == "/" })
        let (fault, file) = state.withLock { state -> (Fault?, [UInt8]?) in
            state.requests.append(path)
            var fault = state.always[path]
            if fault == nil, var script = state.scripts[path], !script.isEmpty {
                fault = script.removeFirst()
                state.scripts[path] = script
            }
            return (fault, state.files[path])
        }
        var delay: Duration?
        switch fault {
        case .stall: return .stall
        case .dropConnection: return .drop(after: nil)
        case .status(let code): return .respond(status: code, headers: [], body: [], after: nil)
        case .delay(let duration): delay = duration
        case nil: break
        }
        guard let body = file ?? folderFile(path) else { return .respond(status: 404, headers: [], body: [], after: delay) }
        var headers = [("Content-Type", Self.contentType(path)), ("Accept-Ranges", "bytes")]
        let sent: [UInt8]
        var status = 200
        if let range, let (start, end) = Self.byteRange(range, count: body.count) {
            status = 206
            headers.append(("Content-Range", "bytes \(start)-\(end)/\(body.count)"))
            sent = Array(body[start...end])
        } else if range != nil {
            return .respond(status: 416, headers: [("Content-Range", "bytes */\(body.count)")], body: [], after: delay)
        } else {
            sent = body
        }
        return .respond(status: status, headers: headers, body: method == .HEAD ? [] : sent, after: delay)
    }

    private func folderFile(_ path: String) -> [UInt8]? {
        guard let folder, !path.split(separator: "/").contains("..") else { return nil }
        return (try? Data(contentsOf: folder.appendingPathComponent(path))).map { Array($0) }
    }

    /// A single `bytes=` range within `count` bytes, or nil when it cannot be satisfied.
    static func byteRange(_ header: String, count: Int) -> (Int, Int)? {
        guard header.lowercased().hasPrefix("bytes="), count > 0 else { return nil }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        if spec[0].isEmpty, let suffix = Int(spec[1]), suffix > 0 { return (max(0, count - suffix), count - 1) }
        guard let start = Int(spec[0]), start < count else { return nil }
        let end = Int(spec[1]).map { min($0, count - 1) } ?? count - 1
        return start <= end ? (start, end) : nil
    }

    static func contentType(_ path: String) -> String {
        switch path.split(separator: ".").last.map(String.init) ?? "" {
        case "m3u8": "application/vnd.apple.mpegurl"
        case "ts": "video/mp2t"
        case "m4s", "mp4": "video/mp4"
        case "aac": "audio/aac"
        case "vtt": "text/vtt"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}

/// Lets the channel initializer reach the server, which exists only once the listener is bound.
private final class HandlerBox: Sendable {
    let server = Mutex<LoopbackHLSServer?>(nil)
    var respond: @Sendable (String, HTTPMethod, String?) -> LoopbackHLSServer.Answer {
        { [self] path, method, range in
            guard let server = server.withLock({ $0 }) else { return .drop(after: nil) }
            return server.answer(path: path, method: method, range: range)
        }
    }
}

/// One connection: reads a request head, answers it as the server says.
private final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let respond: @Sendable (String, HTTPMethod, String?) -> LoopbackHLSServer.Answer
    private var head: HTTPRequestHead?

    init(respond: @escaping @Sendable (String, HTTPMethod, String?) -> LoopbackHLSServer.Answer) { self.respond = respond }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            let answer = respond(head.uri, head.method, head.headers.first(name: "range"))
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            switch answer {
            case .stall: break
            case .drop(let after):
                Self.run(after: after, on: context.eventLoop) { bound.value.close(promise: nil) }
            case .respond(let status, let headers, let body, let after):
                let keepAlive = head.isKeepAlive
                let version = head.version
                Self.run(after: after, on: context.eventLoop) {
                    Self.write(status: status, headers: headers, body: body, version: version, keepAlive: keepAlive, context: bound.value)
                }
            }
        }
    }

    private static func run(after delay: Duration?, on loop: any EventLoop, _ work: @escaping @Sendable () -> Void) {
        guard let delay else { return work() }
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        loop.scheduleTask(in: .nanoseconds(nanoseconds)) { work() }
    }

    private static func write(
        status: Int, headers: [(String, String)], body: [UInt8], version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var fields = HTTPHeaders(headers)
        fields.replaceOrAdd(name: "Content-Length", value: String(body.count))
        fields.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: status), headers: fields)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        if !body.isEmpty {
            context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let done = context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
