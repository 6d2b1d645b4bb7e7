import ArgumentParser
import Foundation
import MediaCore
import VisualAnalysis

/// `marquee text`: the text in a video's frame at given times (Live Text from the command line).
struct TextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Read the text in the exact frame shown at given times (Tesseract, English and Japanese).",
        discussion:
            "Prints each frame's lines (or, with --json, blocks, lines and words with boxes in the frame's pixels before display rotation) and how long it took."
    )

    @Argument(help: "A media file path or an http(s) URL.")
    var source: String

    @Option(help: "Comma-separated times in seconds, such as 1,2.5,10.")
    var at: String

    @Option(help: "Pre-processing before recognition: default (measured best), none, otsu or sauvola.")
    var preprocessing = "default"

    @Option(help: "Tesseract languages, joined with +.")
    var languages = "eng+jpn"

    @Flag(help: "Print one JSON object per frame instead of text (the default when standard output is not a terminal).")
    var json = false

    func validate() throws {
        if Self.preprocessor(named: preprocessing) == nil {
            throw ValidationError("--preprocessing must be default, none, otsu or sauvola")
        }
    }

    static func preprocessor(named name: String) -> FramePreprocessor? {
        switch name {
        case "default": FramePreprocessor()
        case "none": FramePreprocessor.none
        case "otsu": FramePreprocessor(binarization: .otsu)
        case "sauvola": FramePreprocessor(binarization: .sauvola)
        case "no-invert": FramePreprocessor(invertsLightOnDark: false)
        case "no-upscale": FramePreprocessor(upscaleBelowShortSide: 0)
        default: nil
        }
    }

    struct Report: Encodable {
        var event = "frame"
        var requestedTime: Double
        var milliseconds: Double
        var frame: FrameText
        var text: String
    }

    func run() async throws {
        let console = Console(command: "text", json: json)
        try await console.run {
            let times = try at.split(separator: ",").map { part -> Double in
                guard let seconds = Double(part.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
                    throw ValidationError("not a time in seconds: \(part)")
                }
                return seconds
            }
            let recognizer = TextRecognizer(
                languages: languages.split(separator: "+").map(String.init),
                preprocessor: Self.preprocessor(named: preprocessing)!, threadCount: 1)
            let analyzer = FrameTextAnalyzer(recognizer: recognizer)
            let asset = MediaSourceArgument.asset(source)
            for time in times {
                let started = ContinuousClock.now
                let frame = try await analyzer.analyze(asset, at: time)
                let elapsed = ContinuousClock.now - started
                let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                try console.emit(
                    encoded: Report(requestedTime: time, milliseconds: milliseconds, frame: frame, text: frame.text.text),
                    text: "# \(String(format: "%.3f", frame.frameTime)) s (\(Int(milliseconds)) ms)\n\(frame.text.text)")
            }
        }
    }
}
