import APNs
import Accounts
import ArgumentParser
import CoreMetrics
import Foundation
import HLS
import Hummingbird
import JSONDocument
import Library
import Logging
import MarqueeServer
import Prometheus
import ServerLogging

/// `marquee serve`: the media server, its library, and the web player.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the library, the REST API, the web player and in-app downloads.",
        discussion: "On first run with an empty library, sample clips are made with ffmpeg (skip with --no-samples)."
    )

    @Option(help: "Data directory (default: $XDG_DATA_HOME/marquee or ~/.local/share/marquee).")
    var data: String?

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "Close a connection with no request in progress after this many seconds (also the time a request head may take).")
    var idleTimeout: Double = 30

    @Option(help: "Most connections kept open at once (default: half the file-descriptor limit, at most 8192).")
    var maxConnections: Int?

    @Option(
        help:
            "Most connections one client address may keep open (default: a quarter of --max-connections, at least 8). Behind a reverse proxy every client has the proxy's address: set it to --max-connections there."
    )
    var maxConnectionsPerAddress: Int?

    @Option(
        name: .customLong("trusted-proxy"),
        help:
            "A reverse proxy (an address or network: 127.0.0.1, 10.0.0.0/8, ::1) whose X-Forwarded-For names the client, so per-client limits (sign-in attempts, expensive requests, Live Text) count each client, not the proxy. Repeat for several. X-Forwarded-For from other peers is ignored."
    )
    var trustedProxies: [String] = []

    @Option(
        name: .customLong("allowed-host"),
        help:
            "A host name the server also answers to, e.g. a reverse proxy's public name (repeatable). IP addresses, localhost and this machine's name always work."
    )
    var allowedHosts: [String] = []

    @Flag(
        name: .customLong("require-sign-in"),
        help: "Require sign-in even when bound to loopback (behind a reverse proxy on this machine). Any non-loopback address always requires it.")
    var requireSignIn = false

    @Option(
        name: .customLong("apns-config"),
        help:
            "A JSON file for Live Activity pushes: keyFile, keyID, teamID, bundleID, and optionally environment (production or sandbox), highPriorityPerHour, host (every APNs service at one base URL, e.g. a local stand-in) and caFile (extra certificate authorities to trust). Default: MARQUEE_APNS_KEY_FILE, MARQUEE_APNS_KEY_ID, MARQUEE_APNS_TEAM_ID, MARQUEE_APNS_BUNDLE_ID, MARQUEE_APNS_ENVIRONMENT, MARQUEE_APNS_PRIORITY_BUDGET, MARQUEE_APNS_HOST and MARQUEE_APNS_CA_FILE; without either, pushes are off."
    )
    var apnsConfig: String?

    @Flag(name: .customLong("no-samples"), help: "Do not create sample clips in an empty library.")
    var noSamples = false

    @OptionGroup var nearby: NearbyOptions

    @OptionGroup var storage: StorageOptions

    @Flag(
        name: .customLong("no-worker"),
        help:
            "Run no ingest worker in this server (jobs are left to `marquee worker` processes sharing its --database); with a PostgreSQL --database, reading frames for the Live Text search index is left to them too."
    )
    var noWorker = false

    @Flag(help: "Print the console as JSON lines (the default when standard output is not a terminal).")
    var json = false

    @OptionGroup var logging: LogOptions

    @Option(
        name: .customLong("metrics-token"),
        help:
            "A bearer token that may read /metrics (for a Prometheus server with no account; also MARQUEE_METRICS_TOKEN). Without it only the owner may, which on a loopback-bound server is everyone on this machine."
    )
    var metricsToken: String?

    func run() async throws {
        let console = Console(command: "serve", json: json)
        try await console.run { try await serve(console) }
    }

    private func serve(_ console: Console) async throws {
        logging.apply()
        defer { LogOutput.standardError.flush() }
        // One registry for the server's own metrics and for what the library's worker and the
        // push relay count through swift-metrics.
        let metrics = ServerMetrics()
        MetricsSystem.bootstrap(metrics.factory)
        let (location, store, configuration) = try await storage.open(
            dataDirectory: data.map { URL(fileURLWithPath: $0) } ?? LibraryLocation.defaultDataDirectory())
        let library = try MediaLibrary(
            location: location, packager: IsolatedBundlePackager(executable: IsolatedBundlePackager.currentExecutable()), store: store,
            media: try await storage.mediaStore(for: configuration, location: location))
        try await library.refreshSourceAvailability()
        if !noWorker { await library.worker.start() }
        library.startHousekeeping()
        if !noSamples {
            Task {
                do {
                    try await library.addSamplesIfEmpty()
                } catch {
                    console.warn("could not make sample clips: \(error)")
                }
            }
        }
        let nodeStores = try NodeStores(library: store, location: location)
        let downloads = DownloadService(library: library, shared: nodeStores.downloads)
        for problem in try await downloads.start() {
            console.warn("skipped an unreadable download record: \(problem)")
        }
        let mode = AccessMode.forBindAddress(host, requireSignIn: requireSignIn)
        let accounts = AccountService(store: nodeStores.accounts)
        nodeStores.keepCredentialCacheCurrent(accounts)
        let token = metricsToken ?? ProcessInfo.processInfo.environment["MARQUEE_METRICS_TOKEN"]
        let access = ServerAccess(mode: mode, accounts: accounts, metricsToken: token)
        // Nil (when its cache cannot be opened) serves without Live Text, as MarqueeServer would.
        let liveText = try? LiveTextService(library: library, searchIndex: nodeStores.frameTextIndex)
        var server = MarqueeServer(
            library: library, downloads: downloads, originPolicy: RequestOriginPolicy(allowedHosts: allowedHosts),
            access: access, liveText: liveText)
        server.activities = try await LiveActivityHost.start(
            library: library, downloads: downloads, sessions: server.sessions,
            apns: APNsConfiguration.load(file: apnsConfig.map { URL(fileURLWithPath: $0) }), store: nodeStores.activities)
        let nearbyDevices = try await nearby.start(
            host: host, dataDirectory: location.dataDirectory, sessions: server.sessions, library: server.library, pairings: nodeStores.pairings)
        server.nearby = nearbyDevices?.0
        server.metrics = metrics
        server.accessLog = logging.accessLog ? Logger(label: "marquee.access") : nil
        server.trustedProxies = TrustedProxies(
            try trustedProxies.map { text in
                guard let network = TrustedProxies.Network(text) else {
                    throw ValidationError("--trusted-proxy \(text) is not an IP address or network (such as 127.0.0.1 or 10.0.0.0/8)")
                }
                return network
            })
        let setupCode = mode == .signInRequired ? try await accounts.setupCode() : nil
        let dataPath = location.dataDirectory.path
        // A cluster's index is shared: a node that leaves jobs to `marquee worker` leaves reading
        // frames for search to them too, and only keeps its own caches in step (on one machine
        // the node always indexes, as before).
        await server.liveText?.startIndexing(readingFrames: !(noWorker && nodeStores.frameTextIndex != nil))
        let host = host
        guard idleTimeout > 0, idleTimeout.isFinite, idleTimeout < 86_400 * 365, (maxConnections ?? 1) > 0, (maxConnectionsPerAddress ?? 1) > 0 else {
            throw ValidationError("--idle-timeout, --max-connections and --max-connections-per-address must be positive")
        }
        let limits = ConnectionLimits(
            idleTimeout: .milliseconds(Int64(idleTimeout * 1000)),
            maximumConnections: maxConnections ?? ConnectionLimits.defaultMaximum(),
            maximumPerAddress: maxConnectionsPerAddress)
        var appLogger = Logger(label: "marquee")
        // Hummingbird's own info lines ("Server started and listening…") say what the ready line says.
        if appLogger.logLevel == .info { appLogger.logLevel = .notice }
        let app = server.application(host: host, port: port, limits: limits, logger: appLogger) { bound in
            // Listening on every interface: name the machine, which is what another device types.
            let everywhere = host == "0.0.0.0" || host == "::"
            let name = everywhere ? ProcessInfo.processInfo.hostName : host
            let shown = name.contains(":") ? "[\(name)]" : name
            let url = "http://\(shown):\(bound)/"
            let ready = "Marquee is ready at \(url)  (data: \(location.dataDirectory.path))"
            console.emit("ready", [("url", .string(url)), ("data", .string(location.dataDirectory.path)), ("message", .string(ready))], text: ready)
            if let nearbyLine = nearbyDevices?.1 { console.emit("nearby", [("message", .string(nearbyLine))], text: nearbyLine) }
            if mode == .signInRequired {
                let text = "Sign-in is required on this address: nothing but the sign-in page works without an account."
                console.emit("sign-in-required", [("message", .string(text))], text: text)
            }
            if let setupCode {
                let signIn = "http://\(shown):\(bound)/signin"
                let command = Self.ownerCommand(database: configuration.database, dataPath: dataPath)
                let text = """
                    No owner account yet. Create it in one of two ways:
                      - open \(signIn) from any device and enter the one-time setup code \(setupCode.value)
                      - or on this machine run: \(command)

                    """
                console.emit(
                    "setup",
                    [
                        ("setupCode", .string(setupCode.value)), ("signInURL", .string(signIn)), ("command", .string(command)),
                        ("message", .string(text)),
                    ], text: text)
            }
        }
        do {
            try await app.runService()
        } catch {
            await server.activities?.stop()
            throw CommandFailure(.unavailable, "could not serve on \(host):\(port): \(error)")
        }
        // Stopped (SIGTERM, SIGINT): the job being prepared goes back to the queue at once, and
        // so does an asset being read for the search index.
        await server.liveText?.stopIndexing()
        await library.worker.handBack()
        // SIGTERM or SIGINT ended the service: close the APNs connections before exiting.
        await server.activities?.stop()
    }

    /// The command that makes the first owner on this node's accounts: with SQLite they are in
    /// the data directory (`--data`); with PostgreSQL in the database (`--database`, printed
    /// without its password, which `marquee users` then takes from PGPASSWORD).
    static func ownerCommand(database: DatabaseLocation, dataPath: String) -> String {
        switch database {
        case .sqlite:
            return "marquee users add NAME --role owner --data \(dataPath)"
        case .postgres(let info):
            var query: [String] = []
            if let socket = info.socketDirectory { query.append("host=\(socket)") }
            if info.tls != .prefer { query.append("sslmode=\(info.tls.rawValue)") }
            let address = info.socketDirectory != nil ? "localhost" : "\(info.host.contains(":") ? "[\(info.host)]" : info.host):\(info.port)"
            let url = "postgres://\(info.user)@\(address)/\(info.database)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
            return "marquee users add NAME --role owner --database '\(url)'" + (info.password == nil ? "" : " (with the password in PGPASSWORD)")
        }
    }
}
