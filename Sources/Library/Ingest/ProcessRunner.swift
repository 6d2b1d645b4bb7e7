import Foundation
import Subprocess

/// Runs a command-line tool as a child process with swift-subprocess: nothing blocks a thread
/// of the cooperative pool, standard output is handed over line by line while the tool runs,
/// standard error is kept (its end goes into the error), and cancelling the task tears the
/// process down.
struct ProcessRunner: Sendable {
    /// How a finished process went.
    struct Outcome: Sendable {
        var status: Int32
        var standardError: String
    }

    let executable: String

    /// Standard error kept for the error message; a tool that writes more keeps its end.
    static let standardErrorLimit = 1 << 20

    /// Runs the tool with `arguments`, handing each line of its standard output to `onLine`.
    /// Throws `LibraryError.toolFailed` with the end of standard error when it exits non-zero
    /// or cannot be started.
    @discardableResult
    func run(_ arguments: [String], onLine: (@Sendable (String) async -> Void)? = nil) async throws -> Outcome {
        let tool = (executable as NSString).lastPathComponent
        let result: ExecutionRecord
        do {
            let outcome = try await Subprocess.run(
                .path(.init(executable)), arguments: Arguments(arguments),
                input: .none, output: .sequence, error: .string(limit: Self.standardErrorLimit)
            ) { execution in
                for try await line in execution.standardOutput.strings(bufferingPolicy: .maxLineLength(1 << 20)) {
                    await onLine?(line)
                }
            }
            result = ExecutionRecord(termination: outcome.terminationStatus, standardError: outcome.standardError)
        } catch let error as SubprocessError {
            try Task.checkCancellation()
            throw LibraryError.toolFailed(tool: tool, status: -1, message: "could not start: \(error)")
        }
        try Task.checkCancellation()
        let tail = String(result.standardError.suffix(2000)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard case .exited(let status) = result.termination, status == 0 else {
            let status: Int32 = if case .exited(let code) = result.termination { code } else { -1 }
            throw LibraryError.toolFailed(tool: tool, status: status, message: tail.isEmpty ? "\(result.termination)" : tail)
        }
        return Outcome(status: 0, standardError: tail)
    }

    private struct ExecutionRecord {
        var termination: TerminationStatus
        var standardError: String
    }
}
