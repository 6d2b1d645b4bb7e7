import ArgumentParser
import Downloads
import Foundation
import HLS
import JSONDocument

/// `marquee inspect`: what is in a stream — variants, renditions and badges of a
/// multivariant playlist, or segments, timing, encryption and interstitials of a media one.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the variants, renditions or segments of an HLS playlist.",
        discussion: "Exit status: 0 fine, 1 the playlist has errors, 2 it could not be read or fetched."
    )

    @Argument(help: "Playlist URL (http, https) or file path.")
    var location: String

    @Flag(help: "Print one JSON document instead of tables.")
    var json = false

    @Flag(help: "Report the specification's MUST rules as errors.")
    var strict = false

    @Flag(help: "List every media segment (URI, start, duration, byte range, key, map, date, discontinuity, gap, parts).")
    var segments = false

    @Option(help: "Give up on a server that sends less than 16 KiB in this many seconds.")
    var stallTimeout: Int = 30

    @Option(help: "Longest line accepted, in bytes (0 for no limit).")
    var maxLineLength: Int = 4 << 20

    func run() async throws {
        let loaded: PlaylistSource.Loaded
        do {
            loaded = try await PlaylistSource.load(location, stall: HTTPFetcher.StallRule(window: .seconds(max(1, stallTimeout))))
        } catch {
            FileHandle.standardError.write(Data("marquee inspect: \(error)\n".utf8))
            throw ExitStatus.unusableInput.exitCode
        }
        let options = ParseOptions(
            mode: strict ? .strict : .lenient, url: loaded.url,
            maximumLineLength: maxLineLength > 0 ? maxLineLength : nil)
        let result = PlaylistParser.parse(loaded.data, options: options)
        if json {
            print(InspectionReport.json(for: result, url: loaded.url, segments: segments).serialized(pretty: true))
        } else {
            print(InspectionTable.render(result, url: loaded.url, source: location, segments: segments), terminator: "")
        }
        if !result.errors.isEmpty {
            if !json {
                let name = loaded.url.isFileURL ? loaded.url.path : loaded.url.absoluteString
                for e in result.errors {
                    FileHandle.standardError.write(Data("\(name):\(e.line):\(e.column): \(e.fullMessage)\n".utf8))
                }
            }
            throw ExitStatus.failed.exitCode
        }
    }
}
