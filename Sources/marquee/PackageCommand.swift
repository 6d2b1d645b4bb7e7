import ArgumentParser
import Foundation
import HLS
import JSONDocument
import MediaCore

/// `marquee package`: turns a media file into CMAF HLS with trick-play playlists.
struct PackageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "package",
        abstract: "Package a media file as CMAF (fMP4) HLS with I-frame and image playlists.")

    @Argument(help: "A media file path or an http(s) URL.")
    var source: String

    @Option(help: "Output directory (master.m3u8 goes here).")
    var out: String

    @Option(help: "Comma-separated ladder heights to encode with libx264, such as 1080,720,360. Default: copy the source video when HLS-compatible.")
    var ladder: String?

    @Option(help: "Target segment duration in seconds.")
    var segmentDuration: Double = 6

    @Flag(help: "Print progress and the result as JSON lines (the default when standard output is not a terminal).")
    var json = false

    func validate() throws {
        if let ladder, Self.heights(ladder) == nil { throw ValidationError("--ladder must be heights like 1080,720,360") }
        if segmentDuration <= 0 { throw ValidationError("--segment-duration must be positive") }
    }

    static func heights(_ text: String) -> [Int]? {
        let values = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ ($0 ?? 0) >= 16 }) else { return nil }
        return values.compactMap { $0 }
    }

    func run() async throws {
        let console = Console(command: "package", json: json)
        try await console.run {
            var options = PackagingOptions(ladder: ladder.flatMap(Self.heights))
            options.segmentDuration = segmentDuration
            let packager = HLSPackager(asset: MediaSourceArgument.asset(source), options: options)
            let result = try await packager.package(to: out) { console.progress($0, label: "package") }
            console.clearProgress()
            for warning in result.warnings { console.warn(warning) }
            let renditions: [JSONValue] = result.renditions.map {
                .object([("kind", .string($0.kind.rawValue)), ("playlist", .string($0.playlist)), ("method", .string($0.method.rawValue))])
            }
            var lines = [result.multivariantPath]
            for rendition in result.renditions {
                lines.append("  \(rendition.kind.rawValue)\t\(rendition.method.rawValue)\t\(rendition.playlist)")
            }
            for variant in result.multivariant.variants {
                let a = variant.attributes
                lines.append(
                    "  variant \(variant.uri) BANDWIDTH=\(a.bandwidth ?? 0) AVERAGE-BANDWIDTH=\(a.averageBandwidth ?? 0) CODECS=\(a.codecs.joined(separator: ","))"
                        + (a.resolution.map { " RESOLUTION=\($0)" } ?? ""))
            }
            console.emit(
                "result",
                [
                    ("multivariant", .string(result.multivariantPath)), ("renditions", .array(renditions)),
                    ("warnings", .strings(result.warnings)),
                ],
                text: lines.joined(separator: "\n"))
        }
    }
}
