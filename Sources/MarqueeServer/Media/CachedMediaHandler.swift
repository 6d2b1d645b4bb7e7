import Accounts
import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
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
///
/// Every answer carries an `X-Request-ID` (the proxy's when sane, else a new one), is counted
/// in `counts` (atomics only) and, with `accessLog`, gets its access log line, as routed ones do.
struct CachedMediaAnswers: Sendable {
    let files: MediaFileResponder
    let originPolicy: RequestOriginPolicy
    let access: ServerAccess?
    let serverName: String?
    var counts = EventLoopAnswerCounts()
    var accessLog: Logger? = nil

    enum Answer {
        /// A head, then the body (if any) from memory.
        case memory(HTTPResponse, ByteBuffer?)
        /// A head, then `count` bytes of the file from `offset`, sent with `sendfile`.
        case region(HTTPResponse, OpenFile, offset: Int, count: Int)
    }

    /// What a connection's earlier requests settled, so that its next ones (a player fetches
    /// segment after segment on one connection) skip the work: the `Host` and `Origin` the
    /// origin policy accepted, and the credential it presented with the principal it names —
    /// trusted while the account service has revoked nothing since and for at most
    /// `recheckAfter`, after which the service is asked again.
    struct ConnectionMemory {
        static let recheckAfter: Duration = .seconds(1)
        var accepted: (host: String?, origin: String?)?
        var credential: (value: String, principal: Principal, revocations: UInt64, checked: ContinuousClock.Instant)?
    }

    /// The request fields this path reads, found in one pass (nil when a field it reads comes
    /// twice: such a request goes to the router, which combines them as HTTP says).
    struct RequestFields {
        var connection: String?
        var upgrade: String?
        var origin: String?
        var authorization: String?
        var cookie: String?
        var requestID: String?

        init?(_ fields: HTTPFields) {
            for field in fields {
                switch field.name {
                case .connection:
                    guard connection == nil else { return nil }
                    connection = field.value
                case .upgrade:
                    guard upgrade == nil else { return nil }
                    upgrade = field.value
                case .origin:
                    guard origin == nil else { return nil }
                    origin = field.value
                case .authorization:
                    guard authorization == nil else { return nil }
                    authorization = field.value
                case .cookie:
                    guard cookie == nil else { return nil }
                    cookie = field.value
                case RequestID.headerName:
                    guard requestID == nil else { return nil }
                    requestID = field.value
                default: continue
                }
            }
        }
    }

    /// The answer to `request`, or nil when the router must answer it. `canSendFiles` says
    /// whether the connection has a `FileRegionSink` (for files not kept in memory).
    func answer(_ request: HTTPRequest, canSendFiles: Bool) -> Answer? {
        var memory = ConnectionMemory()
        return answer(request, canSendFiles: canSendFiles, remembering: &memory)
    }

    /// `answer(_:canSendFiles:)` for one request of a connection whose earlier requests
    /// settled `memory` (updated for the next).
    func answer(_ request: HTTPRequest, canSendFiles: Bool, remembering memory: inout ConnectionMemory) -> Answer? {
        guard request.method == .get || request.method == .head, let target = request.path, let path = Self.plainMediaPath(target),
            let fields = RequestFields(request.headerFields)
        else { return nil }
        // `Connection: close` ends the connection after the response (Hummingbird's loop does that).
        guard fields.connection?.lowercased().contains("close") != true, fields.upgrade == nil else { return nil }
        if memory.accepted == nil || memory.accepted! != (request.authority, fields.origin) {
            guard
                originPolicy.refusal(
                    method: request.method, host: request.authority, origin: fields.origin,
                    contentType: request.headerFields[.contentType], isUpgrade: false) == nil,
                !RateLimits.isExpensive(method: request.method, path: path)
            else { return nil }
            memory.accepted = (request.authority, fields.origin)
        }
        if let access, !permits(fields, method: request.method, path: path, access: access, remembering: &memory) { return nil }
        guard let file = files.cache.fresh(String(path.dropFirst())) else { return nil }
        let id = RequestID.forRequest(incoming: fields.requestID)
        let answer: Answer
        let status: HTTPResponse.Status
        let sent: Int
        switch FileAnswer(file: file, method: request.method, headers: request.headerFields) {
        case .unsatisfiable:
            return nil
        case .notModified(var fields):
            fields[.contentLength] = "0"
            (status, sent) = (.notModified, 0)
            answer = .memory(response(status, fields, kind: file.kind, requestID: id), nil)
        case .headOnly(let fields):
            (status, sent) = (.ok, 0)
            answer = .memory(response(status, fields, kind: file.kind, requestID: id), nil)
        case .bytes(let bytesStatus, let fields, let buffer):
            (status, sent) = (bytesStatus, buffer.readableBytes)
            answer = .memory(response(status, fields, kind: file.kind, requestID: id), buffer)
        case .fromFile(let fileStatus, let fields, let range):
            guard canSendFiles, let open = file.file, file.size > 0 else { return nil }
            let bytes = range ?? 0...(file.size - 1)
            (status, sent) = (fileStatus, bytes.count)
            answer = .region(response(status, fields, kind: file.kind, requestID: id), open, offset: bytes.lowerBound, count: bytes.count)
        }
        files.answeredOnEventLoop.wrappingAdd(1, ordering: .relaxed)
        counts.record(method: request.method, status: status, bytes: sent)
        if let accessLog, accessLog.logLevel <= .info {
            accessLog.info(
                "\(request.method) \(path) \(status.code)",
                metadata: [
                    "request.id": .string(id), "method": .string(request.method.rawValue), "path": .string(path),
                    "route": .string(EventLoopAnswerCounts.route), "status": .stringConvertible(status.code),
                    "bytes": .stringConvertible(sent), "answered": "event-loop",
                ])
        }
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

    /// The response head with what the routed path adds to every response: the security
    /// headers of `RequestOriginMiddleware`, `Date` and `Server`. (`fields` are a cached
    /// file's, which never carry these, so they are appended rather than looked up and set.)
    private func response(_ status: HTTPResponse.Status, _ fields: HTTPFields, kind: ServedFileKind, requestID: String) -> HTTPResponse {
        var fields = fields
        fields.append(HTTPField(name: RequestID.headerName, value: requestID))
        fields.append(HTTPField(name: .xContentTypeOptions, value: "nosniff"))
        fields.append(HTTPField(name: .referrerPolicy, value: "same-origin"))
        if kind.contentType.hasPrefix("text/html") {
            fields[.contentSecurityPolicy] = RequestOriginMiddleware<MarqueeRequestContext>.pagePolicy(mediaOrigin: originPolicy.mediaOrigin)
            fields[.xFrameOptions] = "DENY"
        }
        fields.append(HTTPField(name: .date, value: ResponseDate.now))
        if let serverName { fields.append(HTTPField(name: .server, value: serverName)) }
        return HTTPResponse(status: status, headerFields: fields)
    }

    /// Whether `AccessRules` lets this request through, deciding only from credentials the
    /// account service already trusts (`knownPrincipal`). False sends the request to the
    /// router's `AccessMiddleware`, which asks the database and answers 401/403 itself.
    func permits(
        _ fields: RequestFields, method: HTTPRequest.Method, path: String, access: ServerAccess,
        remembering memory: inout ConnectionMemory
    ) -> Bool {
        let principal: Principal?
        if let authorization = fields.authorization {
            let known = remembered(authorization, in: &memory, access: access) {
                guard case .bearer(let token) = HeaderValues.authorization(authorization),
                    let known = access.accounts.knownPrincipal(for: CredentialSecret(value: String(token))), known.proof == .token
                else { return nil }
                return known
            }
            guard let known else { return false }
            principal = known
        } else if let cookie = fields.cookie, memory.credential?.value == cookie || AccessMiddleware.sessionCookie(cookie) != nil {
            let known = remembered(cookie, in: &memory, access: access) {
                guard let secret = AccessMiddleware.sessionCookie(cookie),
                    let known = access.accounts.knownPrincipal(for: CredentialSecret(value: secret)), known.proof == .session
                else { return nil }
                return known
            }
            guard let known else { return false }
            principal = known
        } else {
            principal = access.mode == .open ? Principal.localUser : nil
        }
        let permission = AccessRules.permission(method: method, path: path)
        if permission == .signIn { return true }
        guard let principal else { return false }
        return principal.may(permission)
    }

    /// The principal `credential` names: the connection's remembered one when the same
    /// credential was resolved less than `recheckAfter` ago and nothing was revoked since,
    /// else `resolve()` (remembered when it names someone).
    private func remembered(
        _ credential: String, in memory: inout ConnectionMemory, access: ServerAccess, resolve: () -> Principal?
    ) -> Principal? {
        let revocations = access.accounts.revocations
        let now = ContinuousClock.now
        if let known = memory.credential, known.value == credential, known.revocations == revocations,
            known.checked.duration(to: now) < ConnectionMemory.recheckAfter
        {
            return known.principal
        }
        memory.credential = nil
        guard let principal = resolve() else { return nil }
        memory.credential = (credential, principal, revocations, now)
        return principal
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
    /// What this connection's earlier requests settled (host, credential).
    private var memory = CachedMediaAnswers.ConnectionMemory()

    init(answers: CachedMediaAnswers) {
        self.answers = answers
    }

    func handlerAdded(context: ChannelHandlerContext) {
        sink = try? context.pipeline.syncOperations.handler(type: FileRegionSink.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if routed == 0, let answer = answers.answer(request, canSendFiles: sink != nil, remembering: &memory) {
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
