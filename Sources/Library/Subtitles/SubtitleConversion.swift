public import Foundation

/// Turns an SRT, WebVTT, ASS or SSA file into the WebVTT an HLS subtitle rendition serves.
///
/// Written by hand rather than with FFmpeg's decoders and `webvtt` encoder (which the packager
/// uses for embedded tracks): the files come from uploads and folders, and libav* work on
/// user files runs in a child process (ARCHITECTURE.md, decision 6) — a pure Swift reader
/// needs none, cannot crash the server on a hostile file, and keeps what FFmpeg's encoder
/// drops (ASS alignment as cue settings).
public enum SubtitleConversion {
    /// The largest subtitle file accepted.
    public static let maximumBytes = 5 << 20

    /// The result: the format the bytes were in, the WebVTT text, and how many cues it holds.
    public struct Converted: Sendable, Hashable {
        public var format: SubtitleFormat
        public var webVTT: String
        public var cueCount: Int
    }

    /// Reads `data` (any of the four formats, detected from its content) as WebVTT.
    public static func webVTT(from data: Data) throws(SubtitleFileError) -> Converted {
        guard data.count <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
        guard let text = SubtitleText.decode(data), let format = SubtitleFormat.detect(text) else { throw .unknownFormat }
        let cues: [SubtitleCue] =
            switch format {
            case .subRip: SubRipReader.cues(text, webVTT: false)
            case .webVTT: SubRipReader.cues(text, webVTT: true)
            case .ass: ASSReader.cues(text, legacy: false)
            case .ssa: ASSReader.cues(text, legacy: true)
            }
        guard !cues.isEmpty else { throw .noCues(format) }
        return Converted(format: format, webVTT: write(cues), cueCount: cues.count)
    }

    /// Cues as a WebVTT file. The `X-TIMESTAMP-MAP` header maps cue time 0 to the start of
    /// the media timeline, as the packager's own subtitle segments do.
    static func write(_ cues: [SubtitleCue]) -> String {
        var out = "WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:0\n"
        for (index, cue) in cues.enumerated() {
            out += "\n\(index + 1)\n\(SubtitleTime.webVTT(cue.start)) --> \(SubtitleTime.webVTT(cue.end))"
            if !cue.settings.isEmpty { out += " \(cue.settings)" }
            out += "\n\(cue.text)\n"
        }
        return out
    }
}
