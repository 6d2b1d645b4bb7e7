import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Which requests a browser may make of Marquee, on every address it listens on — loopback
/// included, since that is where a web page the user happens to visit attacks from.
///
/// - **DNS rebinding:** the `Host` header must name this server: an IP literal, `localhost`
///   (or a `*.localhost` name), this machine's host name (also with `.local`), or a name given
///   with `--allowed-host`. A rebound `evil.example` that now resolves to 127.0.0.1 is refused.
/// - **Cross-site requests:** a request that changes something (any method but GET, HEAD and
///   OPTIONS) and every WebSocket upgrade must come from this server's own pages when the
///   browser says where it comes from: an http(s) `Origin` other than the `Host` (or
///   `Origin: null`) is refused. Clients that send no `Origin`, or one no browser sends (a
///   `ws://` origin from a WebSocket library), are not browsers' pages.
/// - **Form posts:** a body a plain HTML form can send without a preflight
///   (`application/x-www-form-urlencoded`, `multipart/form-data`, `text/plain`) is refused on
///   those methods; the API takes JSON (and raw bytes for uploads, which need a preflight).
public struct RequestOriginPolicy: Sendable {
    /// Extra host names the server answers to (a reverse proxy's public name).
    public var allowedHosts: Set<String>
    /// This machine's names, read once.
    let machineNames: Set<String>
    /// Where media are fetched from when they are not served by this server (a bucket's
    /// endpoint or a CDN with `--media-delivery presigned|cdn:`): pages may connect to it and
    /// play from it.
    public var mediaOrigin: String?

    public init(allowedHosts: [String] = []) {
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        let name = ProcessInfo.processInfo.hostName.lowercased()
        var names: Set<String> = [name]
        if let short = name.split(separator: ".").first {
            names.insert(String(short))
            names.insert("\(short).local")
        }
        machineNames = names
    }

    /// The host name of a `Host` or `Origin` authority, without port or IPv6 brackets.
    static func hostName(ofAuthority authority: Substring) -> String {
        HeaderValues.hostName(ofAuthority: authority)
    }

    /// Whether `host` is an IPv4 or IPv6 address, as `inet_pton` reads one (through NIO).
    static func isIPLiteral(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// Whether a `Host` header names this server.
    public func accepts(host header: String) -> Bool {
        let host = Self.hostName(ofAuthority: Substring(header))
        guard !host.isEmpty else { return false }
        if Self.isIPLiteral(host) || host == "localhost" || host.hasSuffix(".localhost") { return true }
        return machineNames.contains(host) || allowedHosts.contains(host)
    }

    /// Why a request is refused, or nil when it may go on.
    func refusal(method: HTTPRequest.Method, host: String?, origin: String?, contentType: String?, isUpgrade: Bool) -> String? {
        // Browsers always send Host; a client without one (HTTP/1.0, an in-process test) is
        // not a page that could have been rebound.
        if let host, !accepts(host: host) {
            return "This server does not answer to the host name \"\(host)\"; start it with --allowed-host NAME to add one"
        }
        let changesState = !(method == .get || method == .head || method == .options)
        guard changesState || isUpgrade else { return nil }
        if let origin {
            // Browsers send an http(s) origin, or `null` from sandboxed and opaque contexts. Any
            // other scheme is not a browser's page (a WebSocket client library may send
            // `ws://host`), and a non-browser client could as well send no Origin at all.
            let scheme = URL(string: origin)?.scheme?.lowercased()
            if origin == "null" {
                return "Requests from another site (\(origin)) are not accepted"
            }
            if scheme == "http" || scheme == "https" {
                let authority = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first
                guard let authority, authority.lowercased() == (host ?? String(authority)).lowercased() else {
                    return "Requests from another site (\(origin)) are not accepted"
                }
            }
        }
        if changesState, let contentType {
            let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            if ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"].contains(type) {
                return "The API takes JSON (Content-Type: application/json), not \(type)"
            }
        }
        return nil
    }
}

/// Applies a `RequestOriginPolicy` to every request and adds the security headers every
/// response carries (and the page policy HTML pages carry).
struct RequestOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: RequestOriginPolicy

    /// What pages may load: only this server's scripts, styles, media (MSE uses blob: URLs)
    /// and sockets; images also from https (artwork named by URL); never framed by others.
    static var pagePolicy: String { pagePolicy(mediaOrigin: nil) }

    /// The page policy, also allowing `mediaOrigin` (where media redirects lead) for fetches,
    /// media and images.
    static func pagePolicy(mediaOrigin: String?) -> String {
        let media = mediaOrigin.map { " " + $0 } ?? ""
        return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:\(media); "
            + "media-src 'self' blob:\(media); connect-src 'self'\(media); font-src 'self'; object-src 'none'; base-uri 'self'; "
            + "form-action 'self'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let headers = request.headers
        let isUpgrade = headers[.upgrade]?.lowercased() == "websocket"
        if let reason = policy.refusal(
            method: request.method, host: request.head.authority, origin: headers[.origin],
            contentType: headers[.contentType], isUpgrade: isUpgrade)
        {
            let status: HTTPResponse.Status =
                reason.hasPrefix("The API takes JSON")
                ? .unsupportedMediaType
                : reason.hasPrefix("This server does not answer") ? .misdirectedRequest : .forbidden
            throw APIError(status, reason)
        }
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        if response.headers[.contentType]?.hasPrefix("text/html") == true {
            response.headers[.contentSecurityPolicy] = Self.pagePolicy(mediaOrigin: policy.mediaOrigin)
            response.headers[.xFrameOptions] = "DENY"
        }
        return response
    }
}

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}
