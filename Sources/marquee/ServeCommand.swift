import ArgumentParser
import Foundation
import Library
import MarqueeServer

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

    @Option(name: .customLong("allowed-host"), help: "A host name the server also answers to, e.g. a reverse proxy's public name (repeatable). IP addresses, localhost and this machine's name always work.")
    var allowedHosts: [String] = []

    @Flag(name: .customLong("no-samples"), help: "Do not create sample clips in an empty library.")
    var noSamples = false

    func run() async throws {
        let location = LibraryLocation(dataDirectory: data.map { URL(fileURLWithPath: $0) } ?? LibraryLocation.defaultDataDirectory())
        let library = try MediaLibrary(location: location)
        try await library.refreshSourceAvailability()
        await library.worker.start()
        library.startHousekeeping()
        if !noSamples {
            Task {
                do {
                    try await library.addSamplesIfEmpty()
                } catch {
                    FileHandle.standardError.write(Data("marquee serve: could not make sample clips: \(error)\n".utf8))
                }
            }
        }
        let downloads = DownloadService(library: library)
        for problem in try await downloads.start() {
            FileHandle.standardError.write(Data("marquee serve: skipped an unreadable download record: \(problem)\n".utf8))
        }
        let server = MarqueeServer(library: library, downloads: downloads, originPolicy: RequestOriginPolicy(allowedHosts: allowedHosts))
        await server.liveText?.startIndexing()
        let host = host
        guard idleTimeout > 0, idleTimeout.isFinite, (maxConnections ?? 1) > 0 else {
            throw ValidationError("--idle-timeout and --max-connections must be positive")
        }
        let limits = ConnectionLimits(idleTimeout: .milliseconds(Int64(idleTimeout * 1000)),
                                      maximumConnections: maxConnections ?? ConnectionLimits.defaultMaximum())
        let app = server.application(host: host, port: port, limits: limits) { bound in
            let shown = host.contains(":") ? "[\(host)]" : host
            let line = "Marquee is ready at http://\(shown):\(bound)/  (data: \(location.dataDirectory.path))\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }
        try await app.runService()
    }
}
