import ArgumentParser
import Foundation
import MediaCore

/// `marquee probe`: prints what MediaCore reads from a media file or URL.
struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Show the format, duration, tracks, metadata and chapters of a media file or URL.")

    @Argument(help: "A media file path or an http(s) URL (HLS playlists too).")
    var source: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let asset = MediaSourceArgument.asset(source)
        do {
            let (format, duration, bitRate, tracks, metadata, chapters) =
                try await asset.load(.formatName, .duration, .bitRate, .tracks, .metadata, .chapters)
            let report = ProbeReport(
                source: source, format: format, duration: duration, bitRate: bitRate,
                tracks: tracks, metadata: metadata, chapters: chapters)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text)
            }
        } catch let error as MediaError {
            if json {
                let payload = ["error": error.kind.rawValue, "source": error.url, "message": error.message]
                print(String(decoding: try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]), as: UTF8.self))
            }
            FileHandle.standardError.write(Data("marquee probe: \(error)\n".utf8))
            throw ExitStatus.unusableInput.exitCode
        }
    }
}
