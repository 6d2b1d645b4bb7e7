import Foundation

/// Runs the ffmpeg / ffprobe command-line tools for tests: media generation and cross-checks.
enum FFmpegTool {
    struct Failure: Error, CustomStringConvertible {
        let command: String
        let output: String
        var description: String { "\(command) failed: \(output.suffix(2000))" }
    }

    /// Runs a tool and returns its standard output; throws with standard error on failure.
    /// Uses posix_spawn and waitpid so the tool has certainly exited (and finished writing
    /// its files) when this returns.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ffmpeg-tool-\(UUID().uuidString)")
        let outPath = scratch.path + ".out"
        let errPath = scratch.path + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = (["/usr/bin/env", tool] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(command: tool, output: "spawn failed: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data()
        let errors = (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()
        // Exited normally with status 0: (status & 0x7f) == 0 and (status >> 8) & 0xff == 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw Failure(command: ([tool] + arguments).joined(separator: " "), output: String(decoding: errors, as: UTF8.self))
        }
        return output
    }

    /// Runs ffmpeg on a thread of its own, so a long encode does not hold one of the few
    /// cooperative threads other tests (with timing expectations) need.
    static func ffmpegOffPool(_ arguments: [String]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                do {
                    try ffmpeg(arguments)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    static func ffmpeg(_ arguments: [String]) throws {
        try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments)
    }

    /// ffprobe's JSON for a file.
    static func probe(_ path: String, _ extra: [String] = ["-show_streams", "-show_format"]) throws -> [String: Any] {
        let data = try run("ffprobe", ["-v", "error", "-of", "json"] + extra + [path])
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Presentation times (seconds) of every video frame, from ffprobe.
    static func videoFrameTimes(_ path: String) throws -> [Double] {
        let json = try probe(path, ["-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time"])
        let frames = json["frames"] as? [[String: Any]] ?? []
        return frames.compactMap { ($0["best_effort_timestamp_time"] as? String).flatMap(Double.init) }.sorted()
    }

    /// Width and height of the first video stream (or image) at `path`.
    static func dimensions(_ path: String) throws -> (Int, Int, String) {
        let json = try probe(path, ["-show_streams"])
        let stream = (json["streams"] as? [[String: Any]])?.first ?? [:]
        return (stream["width"] as? Int ?? 0, stream["height"] as? Int ?? 0, stream["codec_name"] as? String ?? "")
    }
}
