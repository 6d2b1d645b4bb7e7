import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

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

    /// How a process ended: its exit status, or the signal that ended it (a crash: SIGSEGV,
    /// SIGABRT from a failed malloc check, SIGILL from a Swift trap), with its standard error's end.
    struct Ending: Sendable {
        var exitStatus: Int32?
        var signal: Int32?
        /// The last 2,000 characters of standard error, trimmed.
        var standardErrorTail: String
    }

    /// Runs the tool with `arguments`, handing each line of its standard output to `onLine`.
    /// Throws `LibraryError.toolFailed` with the end of standard error when it exits non-zero
    /// or cannot be started.
    @discardableResult
    func run(_ arguments: [String], onLine: (@Sendable (String) async -> Void)? = nil) async throws -> Outcome {
        let tool = (executable as NSString).lastPathComponent
        let ending = try await launch(arguments, onLine: onLine)
        guard ending.exitStatus == 0 else {
            let status = ending.exitStatus ?? -1
            let fallback = ending.signal.map { "killed by signal \($0)" } ?? "exited with status \(status)"
            throw LibraryError.toolFailed(tool: tool, status: status, message: ending.standardErrorTail.isEmpty ? fallback : ending.standardErrorTail)
        }
        return Outcome(status: 0, standardError: ending.standardErrorTail)
    }

    /// Runs the tool and says how it ended, whatever the ending; throws only when it cannot be
    /// started (`LibraryError.toolFailed`) or the task is cancelled (the process is torn down).
    func launch(_ arguments: [String], onLine: (@Sendable (String) async -> Void)? = nil) async throws -> Ending {
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
        switch result.termination {
        case .exited(let code): return Ending(exitStatus: Int32(code), signal: nil, standardErrorTail: tail)
        case .signaled(let signal): return Ending(exitStatus: nil, signal: Int32(signal), standardErrorTail: tail)
        }
    }

    private struct ExecutionRecord {
        var termination: TerminationStatus
        var standardError: String
    }
}
