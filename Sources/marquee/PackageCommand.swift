import ArgumentParser
import Foundation
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

    @Flag(help: "Print progress and the result as JSON lines.")
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
        var options = PackagingOptions(ladder: ladder.flatMap(Self.heights))
        options.segmentDuration = segmentDuration
        let packager = Packager(asset: MediaSourceArgument.asset(source), options: options)
        let bar = ProgressState(json: json, label: "package")
        do {
            let result = try await packager.package(to: out) { bar.update($0) }
            bar.clear()
            if json {
                let payload: [String: Any] = [
                    "multivariant": result.multivariantPath,
                    "renditions": result.renditions.map { ["kind": $0.kind.rawValue, "playlist": $0.playlist, "method": $0.method.rawValue] },
                    "warnings": result.warnings,
                ]
                print(String(decoding: try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self))
            } else {
                print(result.multivariantPath)
                for rendition in result.renditions {
                    print("  \(rendition.kind.rawValue)\t\(rendition.method.rawValue)\t\(rendition.playlist)")
                }
                for variant in result.multivariant.variants {
                    let a = variant.attributes
                    print("  variant \(variant.uri) BANDWIDTH=\(a.bandwidth ?? 0) AVERAGE-BANDWIDTH=\(a.averageBandwidth ?? 0) CODECS=\(a.codecs.joined(separator: ","))"
                          + (a.resolution.map { " RESOLUTION=\($0)" } ?? ""))
                }
                for warning in result.warnings { print("  warning: \(warning)") }
            }
        } catch let error as MediaError {
            bar.clear()
            FileHandle.standardError.write(Data("marquee package: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
