import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Playback

/// `GET /api/sessions/{id}/interstitials/{event}/external?url=…`: an external HLS ad's
/// playlists, asset list and segments, fetched by the server for the web player.
///
/// The player page may only connect to its own server (its Content-Security-Policy says
/// `connect-src 'self'`), so a break whose content is on another server (an `X-ASSET-URI` or
/// `X-ASSET-LIST` URL) reaches the page through here. Only URLs on the origins that break names
/// are fetched: its content's, its asset list's, and those of the assets its asset list lists
/// (once the list was fetched through here). Redirects are not followed, answers other than
/// 2xx are passed on as a 502 that names them, and nothing larger than `maximumBytes` is relayed.
struct InterstitialExternalRoutes: Sendable {
    let sessions: PlaybackSessions
    let origins: ExternalAdOrigins

    static let maximumBytes = 64 * 1024 * 1024
    static let timeout = TimeAmount.seconds(15)
    /// A client of its own that follows no redirect (a redirect could leave the allowed origins).
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(15))))

    func register(on router: Router<MarqueeRequestContext>) {
        router.group("api").get("sessions/{id}/interstitials/{event}/external") { request, context -> Response in
            let sessionID = try context.parameters.require("id")
            let eventID = try context.parameters.require("event")
            guard let text = request.uri.queryParameters.get("url") else {
                throw APIError(.badRequest, "Give the external URL to fetch in ?url=")
            }
            guard let url = URL(string: text), let origin = ExternalAdOrigins.origin(of: url) else {
                throw APIError(.badRequest, "\"\(text)\" is not an absolute http or https URL")
            }
            guard let session = await sessions.session(id: sessionID) else { throw APIError(.notFound, "No session \(sessionID)") }
            guard let event = session.interstitialEvents.first(where: { $0.id == eventID }) else {
                throw APIError(.notFound, "Session \(sessionID) has no interstitial event \(eventID)")
            }
            guard await origins.allows(origin, for: event, sessionID: sessionID) else {
                throw APIError(.forbidden, "\(origin) is not where interstitial event \(eventID)'s content is")
            }
            var outgoing = HTTPClientRequest(url: url.absoluteString)
            outgoing.headers.add(name: "User-Agent", value: "Marquee")
            let answer: HTTPClientResponse
            let body: ByteBuffer
            do {
                answer = try await Self.client.execute(outgoing, timeout: Self.timeout)
                body = try await answer.body.collect(upTo: Self.maximumBytes)
            } catch let error as NIOTooManyBytesError {
                throw APIError(.badGateway, "\(url.absoluteString) is larger than \(Self.maximumBytes) bytes (\(error))")
            } catch {
                throw APIError(.badGateway, "Could not fetch \(url.absoluteString): \(error)")
            }
            guard (200..<300).contains(Int(answer.status.code)) else {
                throw APIError(.badGateway, "\(url.absoluteString) answered HTTP \(answer.status.code)")
            }
            // An asset list names the servers its assets are on: they may be fetched next.
            if let list = event.assetListURL.flatMap({ URL(string: $0) }), list.absoluteString == url.absoluteString {
                await origins.allowAssets(of: Data(buffer: body), for: eventID, sessionID: sessionID)
            }
            var headers = HTTPFields()
            headers[.contentType] = answer.headers.first(name: "Content-Type") ?? "application/octet-stream"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        }
    }
}

/// Which origins each session's break may fetch external content from: its own content's and
/// asset list's, and the origins of the assets its asset list named.
actor ExternalAdOrigins {
    private var listed: [String: Set<String>] = [:]
    static let sessionsKept = 512

    /// `scheme://host:port` of an absolute http(s) URL.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    func allows(_ origin: String, for event: InterstitialEvent, sessionID: String) -> Bool {
        let named = [event.url, event.assetListURL].compactMap { $0.flatMap(URL.init(string:)).flatMap(Self.origin(of:)) }
        return named.contains(origin) || listed["\(sessionID)\n\(event.id)"]?.contains(origin) == true
    }

    func allowAssets(of list: Data, for eventID: String, sessionID: String) {
        guard let decoded = try? JSONDecoder().decode(InterstitialAssetList.self, from: list) else { return }
        if listed.count >= Self.sessionsKept { listed.removeAll() }
        let origins = decoded.assets.compactMap { URL(string: $0.uri).flatMap(Self.origin(of:)) }
        listed["\(sessionID)\n\(eventID)", default: []].formUnion(origins)
    }
}
