import ArgumentParser

/// What a `marquee` command's exit status means; the same for every command, and listed in
/// `docs/command-line.md`. A script can tell "the input was wrong" (2) from "the work was
/// tried and failed" (1) from "a service it needs did not answer" (3) without reading text.
enum ExitStatus: Int32, CaseIterable, Sendable {
    /// Everything the command was asked to do was done.
    case success = 0
    /// The work ran and failed, in whole or in part: a playlist that is not valid, a download
    /// or ingest job that failed, some thumbnails that could not be made, a push not delivered.
    case failed = 1
    /// The input cannot be used: a missing or unreadable file or URL, media FFmpeg cannot open,
    /// a malformed predicate, an unknown account, a playlist that is not a playlist.
    case unusableInput = 2
    /// Something the command needs is not there: the port is taken, the data folder cannot be
    /// written, a device or server did not answer.
    case unavailable = 3
    /// The command line itself is wrong (unknown option, missing or contradictory arguments);
    /// the usage is printed. This is ArgumentParser's `EX_USAGE`.
    case usage = 64
    /// The command was interrupted (Ctrl-C or SIGTERM) before it finished.
    case interrupted = 130

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// The one-word name used in JSON `error` events.
    var name: String {
        switch self {
        case .success: "success"
        case .failed: "failed"
        case .unusableInput: "unusable-input"
        case .unavailable: "unavailable"
        case .usage: "usage"
        case .interrupted: "interrupted"
        }
    }
}

/// A command's reason to stop with a given status: the message is printed on standard error as
/// `marquee COMMAND: message` (and as a JSON `error` event when output is JSON lines).
struct CommandFailure: Error, CustomStringConvertible, Sendable {
    var status: ExitStatus
    var message: String

    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    var description: String { message }
}
