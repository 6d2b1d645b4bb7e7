import ArgumentParser
import Foundation
import HLS
import JSONDocument
import MediaCore

/// `marquee compose`: joins time ranges of media files into one MP4.
struct ComposeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose",
        abstract: "Join ranges of media files into an MP4 (stream copy when possible, re-encode otherwise).")

    @Option(name: .customLong("insert"), help: "SRC@START-END in seconds, appended in order; repeat for more.")
    var inserts: [String] = []

    @Option(
        name: .customLong("mix"),
        help:
            "SRC@START-END:AT — that range of SRC's audio on an audio track of its own from AT seconds, mixed under the rest (music, a voice-over); repeatable."
    )
    var mixes: [String] = []

    @Option(name: .customLong("mix-volume"), help: "Volume of the --mix tracks, 0 to 1 (default 1).")
    var mixVolume: Float = 1

    @Option(name: .customLong("mix-fade"), help: "Seconds each --mix track fades in at its start and out at its end (default 0).")
    var mixFade: Double = 0

    @Option(help: "Output MP4 file.")
    var out: String

    @Flag(help: "Re-encode even when the ranges could be copied.")
    var reencode = false

    @Flag(help: "Print progress and the result as JSON lines.")
    var json = false

    func validate() throws {
        if inserts.isEmpty { throw ValidationError("give at least one --insert SRC@START-END") }
        for insert in inserts where Self.parse(insert) == nil {
            throw ValidationError("cannot read \(insert); expected SRC@START-END, such as movie.mp4@10-20.5")
        }
        for mix in mixes where Self.parseMix(mix) == nil {
            throw ValidationError("cannot read --mix \(mix); expected SRC@START-END:AT, such as music.m4a@0-30:5")
        }
        guard (0...1).contains(mixVolume) else { throw ValidationError("--mix-volume must be between 0 and 1") }
        guard mixFade >= 0 else { throw ValidationError("--mix-fade must not be negative") }
    }

    /// `SRC@START-END:AT`.
    static func parseMix(_ text: String) -> (source: String, range: MediaTimeRange, at: MediaTime)? {
        guard let colon = text.lastIndex(of: ":"), let at = Double(text[text.index(after: colon)...]), at >= 0,
            let (source, range) = parse(String(text[..<colon]))
        else { return nil }
        return (source, range, MediaTime(seconds: at, preferredTimescale: 1000))
    }

    static func parse(_ text: String) -> (source: String, range: MediaTimeRange)? {
        guard let at = text.lastIndex(of: "@") else { return nil }
        let bounds = text[text.index(after: at)...].split(separator: "-")
        guard bounds.count == 2, let start = Double(bounds[0]), let end = Double(bounds[1]), end > start, start >= 0 else {
            return nil
        }
        return (
            String(text[..<at]),
            MediaTimeRange(
                start: MediaTime(seconds: start, preferredTimescale: 1000),
                end: MediaTime(seconds: end, preferredTimescale: 1000))
        )
    }

    func run() async throws {
        let console = Console(command: "compose", json: json)
        try await console.run {
            var composition = MutableComposition()
            var assets: [String: MediaAsset] = [:]
            for insert in inserts {
                let (source, range) = Self.parse(insert)!
                let asset = assets[source] ?? MediaSourceArgument.asset(source)
                assets[source] = asset
                try await composition.insertTimeRange(range, of: asset, at: composition.duration)
            }
            var mixParameters: [AudioMix.InputParameters] = []
            for mix in mixes {
                let (source, range, at) = Self.parseMix(mix)!
                let asset = assets[source] ?? MediaSourceArgument.asset(source)
                assets[source] = asset
                let tracks = try await asset.load(.tracks)
                guard let audio = tracks.first(where: { $0.mediaType == .audio }) else {
                    throw MediaError(.invalidComposition, url: source, message: "has no audio track to mix")
                }
                let track = try composition.addMutableTrack(withMediaType: .audio)
                try await composition.insertTimeRange(range, of: audio, in: asset, at: at, intoTrack: track)
                var parameters = AudioMix.InputParameters(trackID: track, volume: mixVolume)
                let fade = MediaTime(seconds: min(mixFade, range.duration.seconds / 2), preferredTimescale: 1000)
                if fade > .zero {
                    let end = at + range.duration
                    parameters.setVolumeRamp(from: 0, to: mixVolume, timeRange: MediaTimeRange(start: at, duration: fade))
                    parameters.setVolumeRamp(from: mixVolume, to: 0, timeRange: MediaTimeRange(start: end - fade, end: end))
                }
                mixParameters.append(parameters)
            }
            var exporter = CompositionExporter(composition: composition)
            if !mixParameters.isEmpty { exporter.audioMix = AudioMix(inputParameters: mixParameters) }
            let outcome = try await exporter.export(to: out, forceReencode: reencode) { console.progress($0, label: "compose") }
            console.clearProgress()
            var text = "\(out): \(String(format: "%.3f", composition.duration.seconds)) s by \(outcome.method == .streamCopy ? "stream copy" : "re-encoding")"
            for reason in outcome.reasons { text += "\n  re-encoded because \(reason)" }
            console.emit(
                "result",
                [
                    ("out", .string(out)), ("method", .string(outcome.method.rawValue)), ("reasons", .strings(outcome.reasons)),
                    ("duration", .double(composition.duration.seconds)),
                ], text: text)
        }
    }
}
