import Foundation
import MediaCore
import MediaTesting

/// Clips with known text drawn by FFmpeg (DejaVu Sans Mono, Noto Sans CJK), for checking
/// what the recogniser reads and where it says the words are.
enum TextFrames {
    static let mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
    static let sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-visual-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The Code Walkthrough sample's snippet.
    static let codeSnippet = """
        import Playback

        var session = PlaybackSession(id: "demo")
        session.handle(.selectSpeed(rate: 1.5))
        let commands = session.handle(.play)
        // commands == [.play(rate: 1.5)]
        """

    static let japanese = "動画を一時停止すると文字を選択できます"

    /// Writes `text` to a file for drawtext's `textfile` (no escaping worries).
    static func textFile(_ text: String, name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A two-second H.264 clip of `size` on `color`, filtered by `filters`; `extra` goes
    /// before the output (metadata, rotation).
    static func clip(_ name: String, size: String, color: String, filters: String, extra: [String] = []) async throws -> URL {
        let output = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: output.path) { return output }
        try await run(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-y",
                "-f", "lavfi", "-i", "color=c=\(color):size=\(size):rate=24:duration=2",
                "-vf", filters, "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            ] + extra + [output.path])
        return output
    }

    /// A copy of an MP4 whose first track header says "turn 90° clockwise to show" (as
    /// phones write it); `codedHeight` is the stored picture's height.
    static func withDisplayRotation90(_ clip: URL, codedHeight: Int) throws -> URL {
        try DisplayRotation.quarterTurnClockwise(
            clip, codedHeight: codedHeight, to: clip.deletingPathExtension().appendingPathExtension("rotated.mp4"))
    }

    static func run(_ executable: String, _ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        guard status == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw ToolFailure(message: "\(executable) exited with \(status): \(message)")
        }
    }

    struct ToolFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Character error rate: edit distance between what was read and what was drawn, divided by
/// the drawn text's length (in characters, whitespace runs counted as one space).
func characterErrorRate(_ recognized: String, _ reference: String) -> Double {
    func normalized(_ text: String) -> [Character] {
        Array(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }
    let a = normalized(recognized)
    let b = normalized(reference)
    guard !b.isEmpty else { return a.isEmpty ? 0 : 1 }
    var previous = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return Double(a.isEmpty ? b.count : previous[b.count]) / Double(b.count)
}
