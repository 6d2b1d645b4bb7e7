public import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A short test clip, described by what a test needs of it and written with the `ffmpeg`
/// command (FFmpeg's `lavfi` sources, so no media is checked in): the picture, its length
/// and frame rate, audio tracks with their languages, a subtitle track, and container
/// metadata. One recipe for every test target, instead of hand-written `ffmpeg` arguments in
/// each.
public struct TestClip: Sendable {
    /// A `lavfi` picture source: `testsrc2` (moving pattern), `smptebars`, `color=c=red`, …
    public var picture: String
    public var size: String
    public var seconds: Double
    public var frameRate: Int
    /// One audio track per entry: a sine tone and its ISO 639-2 language (nil: untagged).
    public var audio: [Tone]
    /// Cue text shown from 0 to `subtitleSeconds`, as an English `mov_text` track (nil: none).
    public var subtitle: String?
    public var subtitleSeconds: Double
    /// Container metadata (`title`, `artist`, `comment`, …).
    public var metadata: [String: String]
    /// Extra video arguments, such as `["-vf", "setsar=2"]`.
    public var videoArguments: [String]

    /// An audio track: a sine tone at `frequency` hertz in `language`.
    public struct Tone: Sendable {
        public var frequency: Int
        public var language: String?

        public init(frequency: Int, language: String? = nil) {
            self.frequency = frequency
            self.language = language
        }
    }

    public init(
        picture: String = "testsrc2", size: String = "320x180", seconds: Double = 3, frameRate: Int = 24,
        audio: [Tone] = [Tone(frequency: 440)], subtitle: String? = nil, subtitleSeconds: Double = 2,
        metadata: [String: String] = [:], videoArguments: [String] = []
    ) {
        self.picture = picture
        self.size = size
        self.seconds = seconds
        self.frameRate = frameRate
        self.audio = audio
        self.subtitle = subtitle
        self.subtitleSeconds = subtitleSeconds
        self.metadata = metadata
        self.videoArguments = videoArguments
    }

    /// The clip most tests use: English and French audio, English subtitles ("Hello"), a title.
    public static func bilingual(seconds: Double = 3, title: String = "Embedded Title") -> TestClip {
        TestClip(
            seconds: seconds, audio: [Tone(frequency: 440, language: "eng"), Tone(frequency: 660, language: "fra")],
            subtitle: "Hello", metadata: ["title": title])
    }

    /// A short ad: colour bars and a high tone.
    public static func ad(seconds: Double = 2) -> TestClip {
        TestClip(picture: "smptebars", seconds: seconds, audio: [Tone(frequency: 880)])
    }

    /// The `ffmpeg` arguments that write this clip to `path` (`subtitlePath` holds the cue, if any).
    public func arguments(writingTo path: String, subtitlePath: String?) -> [String] {
        var inputs = ["-f", "lavfi", "-i", "\(picture)=size=\(size):rate=\(frameRate):duration=\(seconds)"]
        var maps = ["-map", "0:v"]
        for (index, tone) in audio.enumerated() {
            inputs += ["-f", "lavfi", "-i", "sine=frequency=\(tone.frequency):duration=\(seconds)"]
            maps += ["-map", "\(index + 1):a"]
        }
        var codecs = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"] + videoArguments
        if !audio.isEmpty { codecs += ["-c:a", "aac"] }
        var tags: [String] = []
        for (index, tone) in audio.enumerated() {
            if let language = tone.language { tags += ["-metadata:s:a:\(index)", "language=\(language)"] }
        }
        if let subtitlePath {
            inputs += ["-i", subtitlePath]
            maps += ["-map", "\(audio.count + 1):s"]
            codecs += ["-c:s", "mov_text"]
            tags += ["-metadata:s:s:0", "language=eng"]
        }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { tags += ["-metadata", "\(key)=\(value)"] }
        return ["-hide_banner", "-loglevel", "error", "-y"] + inputs + maps + codecs + tags + [path]
    }

    /// Writes the clip to `url` (its folder must exist) and returns `url`.
    @discardableResult
    public func write(to url: URL) async throws -> URL {
        var subtitlePath: String?
        if let subtitle {
            let cue = url.deletingPathExtension().appendingPathExtension("srt")
            let end = Self.srtTime(subtitleSeconds)
            try "1\n00:00:00,000 --> \(end)\n\(subtitle)\n\n".write(to: cue, atomically: true, encoding: .utf8)
            subtitlePath = cue.path
        }
        // The cue file only feeds the muxer: left next to the clip it would be added as a
        // sidecar subtitle file (`clip.srt`) when the library adds the clip.
        defer { if let subtitlePath { try? FileManager.default.removeItem(atPath: subtitlePath) } }
        let outcome = try await Subprocess.run(
            .path(.init("/usr/bin/ffmpeg")), arguments: Arguments(arguments(writingTo: url.path, subtitlePath: subtitlePath)),
            output: .discarded, error: .string(limit: 64 * 1024))
        guard outcome.terminationStatus.isSuccess else {
            throw TestClipError(path: url.path, message: outcome.standardError ?? "ffmpeg failed")
        }
        return url
    }

    static func srtTime(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        return String(
            format: "%02d:%02d:%02d,%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60, milliseconds % 1000)
    }
}

/// `ffmpeg` could not write a test clip.
public struct TestClipError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "ffmpeg could not write the test clip \(path): \(message)" }
}
