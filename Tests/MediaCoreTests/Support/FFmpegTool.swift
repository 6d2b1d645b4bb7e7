import Foundation

/// Runs the ffmpeg / ffprobe command-line tools for tests: media generation and cross-checks.
enum FFmpegTool {
    struct Failure: Error, CustomStringConvertible {
        let command: String
        let output: String
        var description: String { "\(command) failed: \(output.suffix(2000))" }
    }

    /// Runs a tool and returns its standard output; throws with standard error on failure.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let collected = DataCollector(output.fileHandleForReading)
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let data = collected.finish()
        guard process.terminationStatus == 0 else {
            throw Failure(command: ([tool] + arguments).joined(separator: " "),
                          output: String(decoding: errorData, as: UTF8.self))
        }
        return data
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

/// Reads a pipe to its end on a background thread so a chatty child cannot block on it.
private final class DataCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }
    func finish() -> Data {
        done.wait()
        return data
    }
}
