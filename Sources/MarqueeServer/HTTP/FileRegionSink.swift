import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Lets a response body go out as a file region (`sendfile(2)`: the kernel sends the page
/// cache's bytes, nothing is read into or copied out of the process), the way nginx serves
/// static files.
///
/// Hummingbird's response bodies are byte buffers, so the sink sits in each connection's
/// pipeline just after NIO's HTTP/1 response encoder, where bodies are `IOData` and may be
/// file regions. A route registers the region with its connection's sink (`body(for:…)`),
/// which gives back an empty body and a header naming the region; when that response's head
/// passes, the sink takes the header off and sends the region in place of the body, before
/// the response's end. Head, body and end still go through Hummingbird's writer in one batch,
/// and middlewares see an ordinary `Response`. On a connection without a sink (in-memory test
/// clients) `FileRegionSink.for(_:)` is nil and the route sends bytes.
final class FileRegionSink: ChannelOutboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The header that names a registered region; never leaves the server.
    static let header = "x-marquee-file-region"
    static let headerName = HTTPField.Name(header)!

    struct Region {
        let file: OpenFile
        let offset: Int
        let count: Int
    }

    /// Regions sent by every sink since the process started (for tests and diagnostics).
    static let regionsSent = Atomic<Int>(0)

    /// Sinks by channel, for routes that only have their request's channel.
    private static let registry = Mutex<[ObjectIdentifier: FileRegionSink]>([:])

    /// The sink of a connection, when its pipeline has one.
    static func `for`(_ channel: any Channel) -> FileRegionSink? {
        registry.withLock { $0[ObjectIdentifier(channel)] }
    }

    private let key: ObjectIdentifier
    /// Regions registered by routes and not yet sent, by token. Tokens grow, so a region whose
    /// response never came (a middleware answered instead) is dropped when a later one is sent.
    private let registered = Mutex<(next: UInt64, regions: [UInt64: Region])>((1, [:]))
    /// The region replacing the body of the response being written (event loop only).
    private var sending: Region?

    convenience init(channel: any Channel) {
        self.init(key: ObjectIdentifier(channel))
    }

    init(key: ObjectIdentifier) {
        self.key = key
    }

    /// Regions registered and not yet sent.
    var pendingCount: Int { registered.withLock { $0.regions.count } }

    func handlerAdded(context: ChannelHandlerContext) {
        Self.registry.withLock { $0[key] = self }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        Self.registry.withLock { if $0[key] === self { $0.removeValue(forKey: key) } }
        registered.withLock { $0.regions.removeAll() }
    }

    /// Registers `count` bytes of `file` from `offset` as a response body: returns the header
    /// value to put on the response (under `FileRegionSink.header`).
    func register(_ file: OpenFile, offset: Int, count: Int) -> String {
        registered.withLock { state in
            let token = state.next
            state.next += 1
            state.regions[token] = Region(file: file, offset: offset, count: count)
            return String(token)
        }
    }

    /// The region named by `token`, forgetting it and any registered before it.
    func take(_ token: Substring) -> Region? {
        guard let token = UInt64(token) else { return nil }
        return registered.withLock { state in
            let region = state.regions.removeValue(forKey: token)
            if !state.regions.isEmpty { state.regions = state.regions.filter { $0.key > token } }
            return region
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.headers.contains(name: Self.header):
            let token = head.headers[Self.header].first ?? ""
            head.headers.remove(name: Self.header)
            sending = take(Substring(token))
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body where sending != nil:
            promise?.succeed()  // the placeholder body; the region goes out before the end
        case .end(let trailers) where sending != nil:
            let region = sending!
            sending = nil
            // A handle of its own over the shared descriptor: `sendfile` reads at an explicit
            // offset, so concurrent responses from one open file do not disturb each other.
            let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: region.file.descriptor)
            let sent = context.eventLoop.makePromise(of: Void.self)
            sent.futureResult.whenComplete { _ in
                _ = try? handle.takeDescriptorOwnership()  // the descriptor belongs to `region.file`
                withExtendedLifetime(region.file) {}
            }
            let fileRegion = FileRegion(fileHandle: handle, readerIndex: region.offset, endIndex: region.offset + region.count)
            context.write(wrapOutboundOut(.body(.fileRegion(fileRegion))), promise: sent)
            Self.regionsSent.wrappingAdd(1, ordering: .relaxed)
            context.write(wrapOutboundOut(.end(trailers)), promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }
}

/// A file opened for reading, shared by every response that sends it; closed when the last
/// of them (and the cache entry) lets go.
final class OpenFile: Sendable {
    let descriptor: CInt

    /// Opens `path` read-only (blocking: call on a thread pool). Nil when it cannot be opened.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}

extension FileRegionSink {
    /// Puts a `FileRegionSink` just after the HTTP/1 response encoder of a connection that
    /// stays HTTP (one of Hummingbird's `additionalChannelHandlers`, which are added only when
    /// a connection is not upgraded to a WebSocket, above the HTTP types codec; the sink
    /// itself must sit below it). It then passes reads through and does nothing else.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func handlerAdded(context: ChannelHandlerContext) {
            let operations = context.pipeline.syncOperations
            guard let encoder = try? operations.handler(type: HTTPResponseEncoder.self) else { return }
            try? operations.addHandler(FileRegionSink(channel: context.channel), position: .after(encoder))
        }
    }
}
