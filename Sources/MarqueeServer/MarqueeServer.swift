public import Foundation
public import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
public import Library
public import Logging
import NIOCore
import Playback

/// The Marquee HTTP server: REST API, HLS and image routes, the web player, and renderer
/// WebSockets, in one Hummingbird application over a `MediaLibrary`.
public struct MarqueeServer: Sendable {
    public let library: MediaLibrary
    public let sessions: PlaybackSessions
    /// Where the web player's files are; the bundled copy unless `MARQUEE_WEB_ROOT` says otherwise.
    public let webRoot: URL
    /// The web app's pages, naming their files under the web root's version.
    let webPages: WebPages
    /// Downloads run inside the server (`/downloads`); nil leaves those routes out.
    public let downloads: DownloadService?
    /// Which hosts and origins requests may come from (DNS rebinding and cross-site requests).
    public let originPolicy: RequestOriginPolicy
    /// Per-client limits on the routes that cost real work.
    public let rateLimits: RateLimits
    /// Live Text on paused frames and frame-text search; nil when its store cannot be opened.
    public let liveText: LiveTextService?
    /// Accounts and sign-in; nil serves everyone as the owner with no account routes (embedding, tests).
    public let access: ServerAccess?
    /// Per-client limits on sign-in and setup attempts.
    public let signInLimits: RateLimits
    /// Live Activities (`/activities`, `/api/activities`); nil leaves those routes out.
    public var activities: LiveActivityHost?
    /// Nearby devices (pairing, remotes, games); nil leaves `/api/devices` out.
    public var nearby: NearbyDevices? = nil
    /// The interstitial webhooks (`/api/settings/interstitial-webhooks`), told of every break by `sessions`.
    let interstitialWebhooks: InterstitialWebhooks
    /// Bundle and web files, shared by the file routes and the event-loop path for cached files.
    let mediaFiles = MediaFileResponder()
    /// What `/metrics` shows (a registry of this server's own unless given the process's).
    public var metrics = ServerMetrics()
    /// How long each `/readyz` check may take before it counts as failed.
    public var readinessLimit: Duration = .seconds(1)
    /// The reverse proxies whose `X-Forwarded-For` names the client (per-client limits).
    public var trustedProxies = TrustedProxies.none
    /// Where one line per answered request goes (`marquee.access`); nil writes none.
    public var accessLog: Logger? = nil
    /// What the event-loop media path answered, until `/metrics` folds it in.
    let eventLoopAnswers = EventLoopAnswerCounts()

    public init(
        library: MediaLibrary, sessions: PlaybackSessions = PlaybackSessions(), webRoot: URL? = nil,
        downloads: DownloadService? = nil, originPolicy: RequestOriginPolicy = RequestOriginPolicy(),
        rateLimits: RateLimits = RateLimits(), access: ServerAccess? = nil,
        signInLimits: RateLimits = RateLimits(burst: 10, refillPerSecond: 0.2), liveText: LiveTextService? = nil
    ) {
        self.library = library
        self.sessions = sessions
        let webRoot = webRoot ?? Self.bundledWebRoot()
        self.webRoot = webRoot
        self.webPages = WebPages(root: webRoot, version: WebRootVersion(root: webRoot))
        self.downloads = downloads
        var originPolicy = originPolicy
        if originPolicy.mediaOrigin == nil { originPolicy.mediaOrigin = library.media.directOrigin }
        self.originPolicy = originPolicy
        self.rateLimits = rateLimits
        self.access = access
        self.signInLimits = signInLimits
        self.liveText = liveText ?? (try? LiveTextService(library: library))
        let webhooks = InterstitialWebhooks(file: library.location.dataDirectory.appendingPathComponent("interstitial-webhooks.json"))
        self.interstitialWebhooks = webhooks
        sessions.interstitialListener.set { webhooks.deliver($0, sessionID: $1, assetID: $2) }
        sessions.upNextSource.set { [library] in await UpNextItem.following($0, in: library) }
    }

    /// The web player shipped as a package resource, or `MARQUEE_WEB_ROOT` while developing.
    public static func bundledWebRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let override = environment["MARQUEE_WEB_ROOT"], !override.isEmpty { return URL(fileURLWithPath: override) }
        return Bundle.module.url(forResource: "Public", withExtension: nil) ?? URL(fileURLWithPath: "Public")
    }

    /// Guests invited to watch together: their passes are the sessions'; the ads any viewer is
    /// shown are the library's interstitial assets.
    var guestPasses: GuestPassLookup {
        GuestPassLookup(
            find: { [sessions] in await sessions.guestPass($0) },
            isAdAsset: { [library] in (try? await library.asset(id: $0))??.role == .interstitial })
    }

    /// Every route, for the application and for in-memory tests. Requests reach it through a
    /// `CanonicalRouter` (`application`), which puts each path in its one spelling first.
    public func router() -> Router<MarqueeRequestContext> {
        // Route names match in any letter case, as `AccessRules` and `RateLimits` read them.
        // Every GET route answers HEAD with the same status and headers and no body (RFC 9110
        // §9.3.2), as the `Allow` header of a 405 says it does.
        let router = Router(context: MarqueeRequestContext.self, options: [.caseInsensitive, .autoGenerateHeadEndpoints])
        let routeMethods = RouteMethods()
        router.middlewares.add(JSONErrorMiddleware(routes: routeMethods))
        router.middlewares.add(ClientAddressMiddleware(proxies: trustedProxies))
        router.middlewares.add(RequestOriginMiddleware(policy: originPolicy))
        if let access { router.middlewares.add(AccessMiddleware(access: access, guests: guestPasses)) }
        router.middlewares.add(RateLimitMiddleware(buckets: RateLimitBuckets(limits: rateLimits)))
        HealthRoutes(library: library, sessions: sessions, metrics: metrics, eventLoopAnswers: eventLoopAnswers, limit: readinessLimit)
            .register(on: router)
        let manifests = PlaybackManifestStore(library: library, provisional: downloads)
        LibraryRoutes(library: library, manifests: manifests).register(on: router)
        SessionRoutes(
            library: library, sessions: sessions, manifests: manifests,
            positions: PlaybackPositionRecorder(library: library, sessions: sessions)
        ).register(on: router)
        UploadRoutes(library: library).register(on: router)
        InterstitialRoutes(library: library, sessions: sessions).register(on: router)
        TogetherRoutes(sessions: sessions, nearby: nearby).register(on: router)
        InterstitialWebhookRoutes(webhooks: interstitialWebhooks).register(on: router)
        InterstitialExternalRoutes(sessions: sessions, origins: ExternalAdOrigins(), manifests: manifests).register(on: router)
        ShelfRoutes(library: library).register(on: router)
        HomeRoutes(library: library).register(on: router)
        SubtitleRoutes(library: library).register(on: router)
        LibraryEvents(library: library).register(on: router)
        if let access {
            AuthRoutes(
                access: access, pages: webPages,
                signInBuckets: RateLimitBuckets(limits: signInLimits)
            ).register(on: router)
        }
        FileRoutes(library: library, webRoot: webRoot, responder: mediaFiles, pages: webPages).register(on: router)
        if let activities { ActivityRoutes(host: activities, pages: webPages).register(on: router) }
        if let liveText { FrameTextRoutes(service: liveText, sessions: sessions).register(on: router) }
        if let downloads { DownloadRoutes(service: downloads, pages: webPages, responder: MediaFileResponder()).register(on: router) }
        if let nearby { NearbyRoutes(devices: nearby, pages: webPages).register(on: router) }
        routeMethods.record(router.routes)
        return router
    }

    /// The application listening on `host:port`; `onReady` runs once it accepts connections,
    /// with the port actually bound (useful with port 0).
    public func application(
        host: String, port: Int, limits: ConnectionLimits = ConnectionLimits(), logger: Logger? = nil,
        onReady: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        // Every path in its one spelling before the router, and everything after it, looks;
        // in front of both, the request id, the metrics and the access log.
        let router = CanonicalRouter(router: VersionedWebRouter(router: router(), version: webPages.version))
        let observed = ObservedRouter(router: router, metrics: metrics, accessLog: accessLog)
        let connections = ConnectionCount(maximum: limits.maximumConnections, maximumPerAddress: limits.maximumPerAddress)
        let idle = TimeAmount(limits.idleTimeout)
        let webSockets = router.buildResponder()
        // MARQUEE_CACHED_FILES_ON_EVENT_LOOP=0 sends every request through the router (to measure the difference).
        let cachedFilesOnEventLoop = ProcessInfo.processInfo.environment["MARQUEE_CACHED_FILES_ON_EVENT_LOOP"] != "0"
        let cachedMedia = CachedMediaAnswers(
            files: mediaFiles, originPolicy: originPolicy, access: access, serverName: "Marquee", counts: eventLoopAnswers, accessLog: accessLog)
        let connectionHandlers: @Sendable () -> [any RemovableChannelHandler] = {
            var handlers: [any RemovableChannelHandler] = [FileRegionSink.Installer()]
            if cachedFilesOnEventLoop { handlers.append(CachedMediaHandler.Installer(answers: cachedMedia)) }
            return handlers
        }
        let server = HTTPServerBuilder { responder in
            GuardedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSockets,
                    configuration: .init(
                        http1: HTTP1Channel.Configuration(
                            additionalChannelHandlers: connectionHandlers(),
                            idleTimeout: idle))),
                count: connections, timeout: idle)
        }
        return Application(
            router: observed,
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "Marquee"),
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? port) },
            logger: logger
                ?? {
                    var l = Logger(label: "marquee")
                    l.logLevel = .warning
                    return l
                }()
        )
    }
}
