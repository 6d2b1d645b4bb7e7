import AsyncHTTPClient
import Foundation
import HLS
import Hummingbird
import Library
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Playback

/// `GET /api/sessions/{id}/interstitials/{event}/external?url=…`: an external HLS ad's
/// playlists, asset list and segments, fetched by the server for the web player; and
/// `…/manifest?url=…`: the ad's playback manifest, built here from those playlists.
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
    /// The library's manifests, for an ad that is an asset of this server's library.
    let manifests: PlaybackManifestStore

    static let maximumBytes = 64 * 1024 * 1024
    static let timeout = TimeAmount.seconds(15)
    /// A client of its own that follows no redirect (a redirect could leave the allowed origins).
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(15))))

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.get("sessions/{id}/interstitials/{event}/external", use: relay)
        api.get("sessions/{id}/interstitials/{event}/manifest", use: manifest)
    }

    /// `…/external?url=`: the bytes at an allowed external URL (a playlist, an asset list, a segment).
    @Sendable func relay(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let (event, sessionID, url) = try await target(of: request, context: context)
        let (body, contentType) = try await fetch(url, for: event, sessionID: sessionID)
        // An asset list names the servers its assets are on: they may be fetched next.
        if let list = event.assetListURL.flatMap({ URL(string: $0) }), list.absoluteString == url.absoluteString {
            await origins.allowAssets(of: Data(buffer: body), for: event.id, sessionID: sessionID)
        }
        var headers = HTTPFields()
        headers[.contentType] = contentType ?? "application/octet-stream"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// `…/manifest?url=`: the playback manifest of what a break plays. For an asset of this
    /// server's library (a path: `/media/{id}/master.m3u8` or `/api/assets/{id}/manifest.json`)
    /// it is the asset's own manifest; for an external HLS ad (an absolute URL, its multivariant
    /// playlist) it is built here from the ad's playlists with the `HLS` parser
    /// (`ExternalAdManifest`), every init section and segment addressed through `relay`. A
    /// playlist that cannot play in the web player is a `422` saying why.
    @Sendable func manifest(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let manifest: PlaybackManifest
        if let path = request.uri.queryParameters.get("url"), path.hasPrefix("/") {
            guard Self.matches(Self.libraryPathExpression, path), let id = Self.libraryAssetID(inPath: path) else {
                throw APIError(.unprocessableContent, "\(path) is not an asset of this library (/media/ID/master.m3u8)", code: "unplayable-ad")
            }
            _ = try await target(of: request, context: context, external: false)
            manifest = try await manifests.manifest(for: try await manifests.playableAsset(id: id))
        } else {
            let (event, sessionID, url) = try await target(of: request, context: context)
            let relayed = "/api/sessions/\(Self.escaped(sessionID))/interstitials/\(Self.escaped(event.id))/external?url="
            manifest = try await ExternalAdManifest.build(
                url: url,
                fetch: { address in Data(buffer: try await fetch(address, for: event, sessionID: sessionID).body) },
                relay: { relayed + Self.escaped($0.absoluteString) })
        }
        var response = try context.responseEncoder.encode(manifest, from: request, context: context)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// What `…/manifest?url=` takes, as `openapi.json` states it: an address (`HTTPAddress`)
    /// or the path of a library asset's playlist or manifest.
    static let manifestURLPattern = "^(" + HTTPAddress.address + "|" + libraryPath + ")$"
    /// A library asset's playlist or manifest on this server (the id: printable ASCII, no slash).
    static let libraryPath = #"/media/[!-.0-~]+/master\.m3u8|/api/assets/[!-.0-~]+/manifest\.json"#
    static let libraryPathExpression = try! NSRegularExpression(pattern: "^(" + libraryPath + ")$")

    static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The library asset a path on this server plays: `/media/{id}/master.m3u8` or
    /// `/api/assets/{id}/manifest.json`.
    static func libraryAssetID(inPath path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 4, parts[0].isEmpty, parts[1] == "media", !parts[2].isEmpty, parts[3] == BundleLayout.multivariantPlaylist {
            return parts[2]
        }
        if parts.count == 5, parts[0].isEmpty, parts[1] == "api", parts[2] == "assets", !parts[3].isEmpty, parts[4] == "manifest.json" {
            return parts[3]
        }
        return nil
    }

    /// The session's event and the checked absolute URL a relay or manifest request names.
    func target(of request: Request, context: MarqueeRequestContext, external: Bool = true) async throws -> (InterstitialEvent, String, URL) {
        let sessionID = try context.parameters.require("id")
        let eventID = try context.parameters.require("event")
        guard let text = request.uri.queryParameters.get("url") else {
            throw APIError(.badRequest, "Give the external URL to fetch in ?url=")
        }
        guard let url = external ? HTTPAddress.url(text) : URL(string: text), !external || ExternalAdOrigins.origin(of: url) != nil else {
            throw APIError(.badRequest, "\"\(text)\" is not an absolute http or https URL")
        }
        guard let session = await sessions.session(id: sessionID) else { throw APIError(.notFound, "No session \(sessionID)") }
        guard let event = session.interstitialEvents.first(where: { $0.id == eventID }) else {
            throw APIError(.notFound, "Session \(sessionID) has no interstitial event \(eventID)")
        }
        return (event, sessionID, url)
    }

    /// The body and content type at `url`, when it is on an origin the break names; a 502 that
    /// names the other server's answer when it is not a 2xx, too large or unreachable.
    func fetch(_ url: URL, for event: InterstitialEvent, sessionID: String) async throws -> (body: ByteBuffer, contentType: String?) {
        guard let origin = ExternalAdOrigins.origin(of: url), await origins.allows(origin, for: event, sessionID: sessionID) else {
            throw APIError(.forbidden, "\(ExternalAdOrigins.origin(of: url) ?? url.absoluteString) is not where interstitial event \(event.id)'s content is")
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
        return (body, answer.headers.first(name: "Content-Type"))
    }

    /// `text` percent-encoded for a path segment or a query value.
    static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
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
