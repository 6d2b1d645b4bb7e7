public import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Runs the `ffmpeg` command with arguments a test spells out (for media `TestClip` does not
/// describe: a black opening, cover art); throws `TestClipError` with FFmpeg's message.
public enum FFmpegCommand {
    /// Runs `ffmpeg -hide_banner -loglevel error -y` plus `arguments`, writing `output`.
    @discardableResult
    public static func run(_ arguments: [String], output: URL) async throws -> URL {
        let outcome = try await Subprocess.run(
            .path(.init("/usr/bin/ffmpeg")), arguments: Arguments(["-hide_banner", "-loglevel", "error", "-y"] + arguments + [output.path]),
            output: .discarded, error: .string(limit: 64 * 1024))
        guard outcome.terminationStatus.isSuccess else {
            throw TestClipError(path: output.path, message: outcome.standardError ?? "ffmpeg failed")
        }
        return output
    }
}
