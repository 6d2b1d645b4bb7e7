import Foundation

/// Runs a command-line tool as a child process without blocking a thread of the cooperative
/// pool: the wait happens in Foundation's termination handler, standard output arrives as
/// an async sequence of lines, and cancelling the task terminates the process.
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errorLog)
        process.standardError = errorHandle
        defer {
            try? errorHandle.close()
            try? FileManager.default.removeItem(at: errorLog)
        }

        let output = Pipe()
        process.standardOutput = output
        let (lines, linesContinuation) = AsyncStream.makeStream(of: String.self)
        let buffer = LineBuffer()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                for line in buffer.finish() { linesContinuation.yield(line) }
                linesContinuation.finish()
                return
            }
            for line in buffer.append(data) { linesContinuation.yield(line) }
        }

        let status: Int32 = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
                process.terminationHandler = { finished in
                    continuation.resume(returning: finished.terminationStatus)
                }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    output.fileHandleForReading.readabilityHandler = nil
                    linesContinuation.finish()
                    continuation.resume(throwing: LibraryError.toolFailed(
                        tool: executable, status: -1, message: "could not start: \(error.localizedDescription)"))
                }
            }
        } onCancel: {
            if process.isRunning { process.terminate() }
        }
        for await line in lines {
            await onLine?(line)
        }
        try Task.checkCancellation()
        let errorText = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
        let tail = String(errorText.suffix(2000)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0 else {
            throw LibraryError.toolFailed(tool: (executable as NSString).lastPathComponent, status: status, message: tail)
        }
        return Outcome(status: status, standardError: tail)
    }
}

/// Splits bytes arriving in chunks into lines; used from Foundation's reading thread.
private final class LineBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = Data()

    func append(_ data: Data) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        pending.append(data)
        var lines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending = Data(pending[pending.index(after: newline)...])
        }
        return lines
    }

    func finish() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        guard !pending.isEmpty else { return [] }
        defer { pending = Data() }
        return [String(decoding: pending, as: UTF8.self)]
    }
}
