import Foundation

/// Runs a command-line tool as a child process without blocking a thread of the cooperative
/// pool: the wait happens in Foundation's termination handler, and cancelling the task
/// terminates the process.
///
/// Standard output and error go to temporary files rather than pipes, so a descriptor
/// inherited by a concurrently spawned process can never hold back an end-of-file; output
/// lines are read from the file while the tool runs (every 200 ms) and once more at exit.
struct ProcessRunner: Sendable {
    /// How a finished process went.
    struct Outcome: Sendable {
        var status: Int32
        var standardError: String
    }

    let executable: String

    /// Runs the tool with `arguments`, handing each line of its standard output to `onLine`.
    /// Throws `LibraryError.toolFailed` with the end of standard error when it exits non-zero.
    @discardableResult
    func run(_ arguments: [String], onLine: (@Sendable (String) async -> Void)? = nil) async throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-\(UUID().uuidString)")
        let outputURL = scratch.appendingPathExtension("out")
        let errorURL = scratch.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let outputHandle = try FileHandle(forWritingTo: outputURL)
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outputHandle
        process.standardError = errorHandle

        let reader = LineReader(url: outputURL)
        let status: Int32 = try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: Int32?.self) { group in
                group.addTask {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32?, any Error>) in
                        process.terminationHandler = { finished in
                            continuation.resume(returning: finished.terminationStatus)
                        }
                        do {
                            try process.run()
                        } catch {
                            process.terminationHandler = nil
                            continuation.resume(throwing: LibraryError.toolFailed(
                                tool: executable, status: -1, message: "could not start: \(error.localizedDescription)"))
                        }
                    }
                }
                if let onLine {
                    group.addTask {
                        while !Task.isCancelled {
                            for line in reader.newLines() { await onLine(line) }
                            try? await Task.sleep(for: .milliseconds(200))
                        }
                        return nil
                    }
                }
                var exitStatus: Int32 = -1
                while let result = try await group.next() {
                    if let result {
                        exitStatus = result
                        group.cancelAll()
                    }
                }
                return exitStatus
            }
        } onCancel: {
            if process.isRunning { process.terminate() }
        }
        if let onLine {
            for line in reader.newLines(final: true) { await onLine(line) }
        }
        try Task.checkCancellation()
        let errorText = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        let tail = String(errorText.suffix(2000)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0 else {
            throw LibraryError.toolFailed(tool: (executable as NSString).lastPathComponent, status: status, message: tail)
        }
        return Outcome(status: status, standardError: tail)
    }
}

/// Reads the complete lines appended to a file since the last call.
private final class LineReader: @unchecked Sendable {
    private let url: URL
    private let lock = NSLock()
    private var offset: UInt64 = 0
    private var pending = Data()

    init(url: URL) {
        self.url = url
    }

    func newLines(final: Bool = false) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        try? handle.seek(toOffset: offset)
        let data = (try? handle.readToEnd()) ?? Data()
        offset += UInt64(data.count)
        pending.append(data)
        var lines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending = Data(pending[pending.index(after: newline)...])
        }
        if final, !pending.isEmpty {
            lines.append(String(decoding: pending, as: UTF8.self))
            pending = Data()
        }
        return lines
    }
}
