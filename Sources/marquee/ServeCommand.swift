import ArgumentParser
import Foundation
import Library
import MarqueeServer

/// `marquee serve`: the media server, its library, and the web player.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the library, the REST API and the web player.",
        discussion: "On first run with an empty library, sample clips are made with ffmpeg (skip with --no-samples)."
    )

    @Option(help: "Data directory (default: $XDG_DATA_HOME/marquee or ~/.local/share/marquee).")
    var data: String?

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

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
        let server = MarqueeServer(library: library)
        let host = host
        let app = server.application(host: host, port: port) { bound in
            let shown = host.contains(":") ? "[\(host)]" : host
            let line = "Marquee is ready at http://\(shown):\(bound)/  (data: \(location.dataDirectory.path))\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }
        try await app.runService()
    }
}
