import Accounts
import Foundation
import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Answers `GET` and `HEAD` of asset-bundle files that `MediaFileResponder` has in its cache
/// (segments, init sections, images; checked against the disk less than a second ago) right on
/// the connection's event loop, the way nginx answers from its open-file cache: no hand-off to
/// Swift's cooperative pool, no router, no file-system call.
///
/// A request is answered here only when every rule the routed path applies gives the same
/// result without waiting: the origin policy (`RequestOriginPolicy`), the access rules
/// (`AccessRules`, with a credential the account service already trusts), the rate limits
/// (media is not limited), and a fresh cache entry; the response comes from `FileAnswer`, as
/// the routed one does, with the headers the middlewares add. Anything else — an unknown or
/// refused credential, a missing, stale or unsatisfiable file, a percent-encoded path, a
/// playlist (an asset with interstitials serves its playlists rewritten), `Connection: close`
/// or `Upgrade`, a request behind one the router is still answering — goes on to
/// Hummingbird unchanged, which answers it (and its errors) as before and fills the caches.
struct CachedMediaAnswers: Sendable {
    let files: MediaFileResponder
    let originPolicy: RequestOriginPolicy
    let access: ServerAccess?
    let serverName: String?
    let permissions = RememberedPermissions()

    enum Answer {
        /// A head, then the body (if any) from memory.
        case memory(HTTPResponse, ByteBuffer?)
        /// A head, then `count` bytes of the file from `offset`, sent with `sendfile`.
        case region(HTTPResponse, OpenFile, offset: Int, count: Int)
    }

    /// The answer to `request`, or nil when the router must answer it. `canSendFiles` says
    /// whether the connection has a `FileRegionSink` (for files not kept in memory).
    func answer(_ request: HTTPRequest, canSendFiles: Bool) -> Answer? {
        guard request.method == .get || request.method == .head, let target = request.path, let path = Self.plainMediaPath(target)
        else { return nil }
        let headers = request.headerFields
        // `Connection: close` ends the connection after the response (Hummingbird's loop does that).
        guard headers[.connection]?.lowercased().contains("close") != true, headers[.upgrade] == nil else { return nil }
        guard
            originPolicy.refusal(
                method: request.method, host: request.authority, origin: headers[.origin], contentType: headers[.contentType],
                isUpgrade: false) == nil,
            !RateLimits.isExpensive(method: request.method, path: path)
        else { return nil }
        if let access, !permits(request, path: path, access: access) { return nil }
        guard let file = files.cache.fresh(String(path.dropFirst())) else { return nil }
        let answer: Answer
        switch FileAnswer(file: file, method: request.method, headers: headers) {
        case .unsatisfiable:
            return nil
        case .notModified(let fields):
            answer = .memory(response(.notModified, fields), nil)
        case .headOnly(let fields):
            answer = .memory(response(.ok, fields), nil)
        case .bytes(let status, let fields, let buffer):
            answer = .memory(response(status, fields), buffer)
        case .fromFile(let status, let fields, let range):
            guard canSendFiles, let open = file.file, file.size > 0 else { return nil }
            let bytes = range ?? 0...(file.size - 1)
            answer = .region(response(status, fields), open, offset: bytes.lowerBound, count: bytes.count)
        }
        files.answeredOnEventLoop.wrappingAdd(1, ordering: .relaxed)
        return answer
    }

    /// `target` without its query when it is a plain `/media/<asset>/<path>` of a file that is
    /// not a playlist: no `%`, backslash, empty, `.` or `..` segment, no trailing slash — the
    /// paths whose cache key is the path itself, as the router derives it. (One pass over the
    /// bytes: Foundation's substring search cost more than the rest of the answer.)
    static func plainMediaPath(_ target: String) -> String? {
        let bytes = target.utf8
        guard bytes.starts(with: "/media/".utf8) else { return nil }
        var end = bytes.endIndex
        var slashes = 0
        var segmentLength = 0
        var dots = 0
        var previous: UInt8 = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") {
                end = index
                break
            }
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "\\") { return nil }
            if byte == UInt8(ascii: "/") {
                if previous == UInt8(ascii: "/") || (dots > 0 && dots == segmentLength && dots <= 2) { return nil }
                slashes += 1
                segmentLength = 0
                dots = 0
            } else {
                segmentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
            previous = byte
        }
        guard slashes >= 3, previous != UInt8(ascii: "/"), !(dots > 0 && dots == segmentLength && dots <= 2) else { return nil }
        let path = target.utf8[..<end]
        if path.suffix(5).map({ $0 | 0x20 }).elementsEqual(".m3u8".utf8) { return nil }
        return String(Substring(path))
    }

    /// The response head with what the routed path adds to every response: a length (0 for
    /// bodiless answers), the security headers of `RequestOriginMiddleware`, `Date` and `Server`.
    private func response(_ status: HTTPResponse.Status, _ fields: HTTPFields) -> HTTPResponse {
        var fields = fields
        if fields[.contentLength] == nil { fields[.contentLength] = "0" }
        fields[.xContentTypeOptions] = "nosniff"
        fields[.referrerPolicy] = "same-origin"
        if fields[.contentType]?.hasPrefix("text/html") == true {
            fields[.contentSecurityPolicy] = RequestOriginMiddleware<MarqueeRequestContext>.pagePolicy(mediaOrigin: originPolicy.mediaOrigin)
            fields[.xFrameOptions] = "DENY"
        }
        fields[.date] = ResponseDate.now
        if let serverName { fields[.server] = serverName }
        return HTTPResponse(status: status, headerFields: fields)
    }

    /// Whether `AccessRules` lets this request through, deciding only from credentials the
    /// account service already trusts (`knownPrincipal`). False sends the request to the
    /// router's `AccessMiddleware`, which asks the database and answers 401/403 itself.
    func permits(_ request: HTTPRequest, path: String, access: ServerAccess) -> Bool {
        let headers = request.headerFields
        let permission = permissions.permission(method: request.method, path: path)
        let principal: Principal?
        if let authorization = headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer",
                let known = access.accounts.knownPrincipal(for: CredentialSecret(value: String(parts[1]))), known.proof == .token
            else { return false }
            principal = known
        } else if let secret = AccessMiddleware.sessionCookie(headers[.cookie]) {
            guard let known = access.accounts.knownPrincipal(for: CredentialSecret(value: secret)), known.proof == .session else {
                return false
            }
            principal = known
        } else {
            principal = access.mode == .open ? Principal.localUser : nil
        }
        if permission == .signIn { return true }
        guard let principal else { return false }
        return principal.may(permission)
    }
}

/// `AccessRules.permission` by method and path, remembered (the rule table is a pure
/// function of the two; bounded, forgotten all at once when full).
final class RememberedPermissions: Sendable {
    private let known = Mutex<[String: Permission]>([:])

    func permission(method: HTTPRequest.Method, path: String) -> Permission {
        let key = method.rawValue + " " + path
        if let permission = known.withLock({ $0[key] }) { return permission }
        let permission = AccessRules.permission(method: method, path: path)
        known.withLock { table in
            if table.count >= 4096 { table.removeAll() }
            table[key] = permission
        }
        return permission
    }
}

/// The `Date` header's text, made once a second.
enum ResponseDate {
    private static let cached = Mutex<(second: Int, text: String)>((0, ""))

    static var now: String {
        let second = Int(time(nil))
        return cached.withLock { cached in
            if cached.second != second { cached = (second, HTTPDate.format(Date(timeIntervalSince1970: TimeInterval(second)))) }
            return cached.text
        }
    }
}

/// The channel handler that applies `CachedMediaAnswers` to each request of a connection.
/// It sits after Hummingbird's connection state handler (which so still counts every request
/// and response for its idle timeout) and before the async channel that feeds the router.
/// Requests it answers never reach the router; the others pass through untouched, and while
/// one of them is being answered by the router every later request goes the same way, so
/// responses leave in the order requests came.
final class CachedMediaHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let answers: CachedMediaAnswers
    private var sink: FileRegionSink?
    /// Requests passed to the router whose response has not ended yet.
    private var routed = 0
    /// The answer to the request being read, sent once its end arrives.
    private var answering: CachedMediaAnswers.Answer?

    init(answers: CachedMediaAnswers) {
        self.answers = answers
    }

    func handlerAdded(context: ChannelHandlerContext) {
        sink = try? context.pipeline.syncOperations.handler(type: FileRegionSink.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if routed == 0, let answer = answers.answer(request, canSendFiles: sink != nil) {
                answering = answer
                return
            }
            routed += 1
            context.fireChannelRead(data)
        case .body:
            if answering == nil { context.fireChannelRead(data) }
        case .end:
            guard let answer = answering else {
                context.fireChannelRead(data)
                return
            }
            answering = nil
            send(answer, context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { routed = max(0, routed - 1) }
        context.write(data, promise: promise)
    }

    private func send(_ answer: CachedMediaAnswers.Answer, context: ChannelHandlerContext) {
        switch answer {
        case .memory(let head, let body):
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if let body, body.readableBytes > 0 { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        case .region(var head, let file, let offset, let count):
            guard let sink else { return }  // never: regions are chosen only with a sink
            head.headerFields[FileRegionSink.headerName] = sink.register(file, offset: offset, count: count)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

extension CachedMediaHandler {
    /// One of Hummingbird's `additionalChannelHandlers`: those are added before the connection
    /// state handler, and the `CachedMediaHandler` must come after it, so on the connection's
    /// first request (when the whole HTTP pipeline exists) this puts one there and leaves.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        let answers: CachedMediaAnswers
        private var installed = false

        init(answers: CachedMediaAnswers) {
            self.answers = answers
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if !installed {
                installed = true
                let operations = context.pipeline.syncOperations
                if let state = try? operations.handler(type: HTTPConnectionStateHandler.self) {
                    try? operations.addHandler(CachedMediaHandler(answers: answers), position: .after(state))
                }
                context.fireChannelRead(data)
                operations.removeHandler(context: context, promise: nil)
                return
            }
            context.fireChannelRead(data)
        }
    }
}
