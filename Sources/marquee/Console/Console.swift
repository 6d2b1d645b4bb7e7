import ArgumentParser
import Foundation
import HLS
import JSONDocument
import Synchronization

/// Where a command's output goes, decided once per command. At a terminal, people get text on
/// standard output, one progress bar on standard error and errors as `marquee COMMAND: message`.
/// When standard output is not a terminal (a pipe, a file, a program) or `--json` is given,
/// every line on standard output is one JSON object with an `event` field (`progress`,
/// `result`, `warning`, `error`, and per-command events), so a program never parses prose.
/// Errors still go to standard error as text in both modes. Safe to call from any thread.
final class Console: Sendable {
    enum Mode: Sendable, Equatable { case terminal, jsonLines }

    /// The subcommand's name, used in error lines (`marquee package: …`).
    let command: String
    let mode: Mode
    private let bar: Mutex<ProgressBar>

    init(
        command: String, json: Bool = false, standardOutputIsTerminal: Bool = isatty(STDOUT_FILENO) != 0,
        standardErrorIsTerminal: Bool = isatty(STDERR_FILENO) != 0
    ) {
        self.command = command
        mode = json || !standardOutputIsTerminal ? .jsonLines : .terminal
        bar = Mutex(ProgressBar(enabled: mode == .terminal && standardErrorIsTerminal))
    }

    var isJSON: Bool { mode == .jsonLines }

    /// One outcome line: `text` for a person (nothing when nil), or the event for a program.
    func emit(_ event: String, _ fields: [(String, JSONValue)] = [], text: @autoclosure () -> String?) {
        switch mode {
        case .jsonLines:
            write(.object(JSONObject([("event", .string(event))] + fields)), to: .standardOutput)
        case .terminal:
            guard let line = text() else { return }
            bar.withLock { bar in
                bar.hide()
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        }
    }

    /// One outcome line whose JSON form is an `Encodable` value that carries its own `event`
    /// field, for reports too rich to list field by field.
    func emit(encoded value: some Encodable, text: @autoclosure () -> String?) throws {
        switch mode {
        case .jsonLines:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let line = try encoder.encode(value)
            FileHandle.standardOutput.write(line + Data("\n".utf8))
        case .terminal:
            emit("", text: text())
        }
    }

    /// A problem that does not stop the command.
    func warn(_ message: String) {
        switch mode {
        case .jsonLines: write(.object([("event", .string("warning")), ("message", .string(message))]), to: .standardOutput)
        case .terminal:
            bar.withLock { bar in
                bar.hide()
                FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
            }
        }
    }

    /// Progress of the command's work, 0…1: the one progress bar at a terminal (redrawn at most
    /// every 100 ms), or a `progress` event whenever the whole percent changes.
    func progress(_ fraction: Double, label: String, detail: String = "", fields: [(String, JSONValue)] = []) {
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        bar.withLock { bar in
            guard bar.isDue(clamped) else { return }
            switch mode {
            case .jsonLines:
                write(
                    .object(JSONObject([("event", .string("progress")), ("fraction", .double((clamped * 1000).rounded() / 1000))] + fields)),
                    to: .standardOutput)
            case .terminal:
                bar.draw(clamped, label: label, detail: detail)
            }
        }
    }

    /// Removes the progress bar so that the next lines start clean.
    func clearProgress() { bar.withLock { $0.hide() } }

    /// Prints why the command stops and returns the exit code to throw.
    func report(_ failure: CommandFailure) -> ExitCode {
        bar.withLock { bar in
            bar.hide()
            if mode == .jsonLines {
                write(
                    .object([
                        ("event", .string("error")), ("status", .int(Int(failure.status.rawValue))),
                        ("kind", .string(failure.status.name)), ("message", .string(failure.message)),
                    ]),
                    to: .standardOutput)
            }
            FileHandle.standardError.write(Data("marquee \(command): \(failure.message)\n".utf8))
        }
        return failure.status.exitCode
    }

    /// Runs a command's body, turning any error into its documented exit status and one clear
    /// message. Usage errors are left to ArgumentParser, which prints the usage (status 64).
    func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let code as ExitCode {
            throw code
        } catch let validation as ValidationError {
            clearProgress()
            throw validation
        } catch {
            throw report(CommandFailure(classifying: error))
        }
    }

    private func write(_ value: JSONValue, to handle: FileHandle) {
        handle.write(Data((value.serialized() + "\n").utf8))
    }
}

/// The one progress bar every command draws: `label ████░░░░  42.0%  detail`, on standard error.
struct ProgressBar: Sendable {
    let enabled: Bool
    private var visible = false
    private var lastPercent = -1
    private var lastDrawn: ContinuousClock.Instant?

    init(enabled: Bool) { self.enabled = enabled }

    /// Whether `fraction` is worth drawing or printing: the whole percent changed, or the end.
    mutating func isDue(_ fraction: Double) -> Bool {
        let percent = Int(fraction * 100)
        let now = ContinuousClock.now
        if percent == lastPercent && fraction < 1 {
            // At a terminal the detail (rate, time left) still changes: redraw every 100 ms.
            guard enabled, let last = lastDrawn, now - last > .milliseconds(100) else { return false }
        }
        lastPercent = percent
        lastDrawn = now
        return true
    }

    mutating func draw(_ fraction: Double, label: String, detail: String) {
        guard enabled else { return }
        let width = 30
        let filled = min(width, Int(fraction * Double(width)))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = String(format: "%5.1f%%", fraction * 100)
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(label.isEmpty ? "" : label + " ")\(bar) \(percent)\(detail.isEmpty ? "" : "  " + detail)".utf8))
        visible = true
    }

    mutating func hide() {
        guard visible else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        visible = false
    }
}
