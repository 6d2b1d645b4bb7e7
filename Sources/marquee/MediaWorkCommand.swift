import ArgumentParser
import Foundation
import Library
import Synchronization

/// `marquee media-work REQUEST`: the child process in which `marquee serve`, `marquee worker`
/// and `marquee add` probe and package a person's file (`IsolatedBundlePackager`), so a crash
/// inside FFmpeg's libraries ends this process only. Prints `MediaWorkEvent` JSON lines on
/// standard output; FFmpeg's own messages go to standard error. Not for people: hidden.
struct MediaWorkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media-work",
        abstract: "Probe or package one file for a supervising Marquee process (internal).",
        shouldDisplay: false
    )

    @Argument(help: "The request, as JSON (MediaWorkRequest).")
    var request: String

    /// For tests of the supervision only: a request whose file path contains this text makes
    /// the child crash (SIGSEGV) before it starts, as a file that crashes libavcodec would.
    static let crashFailpoint = "MARQUEE_MEDIA_WORK_CRASH_ON"

    func run() async throws {
        guard let decoded = try? JSONDecoder().decode(MediaWorkRequest.self, from: Data(request.utf8)) else {
            throw CommandFailure(.usage, "media-work takes one JSON request")
        }
        if let trigger = ProcessInfo.processInfo.environment[Self.crashFailpoint], !trigger.isEmpty, decoded.subject.contains(trigger) {
            // As a crash in C would end it: by the signal's default action, past Swift's
            // backtracer (whose handler returns from a raised signal).
            signal(SIGSEGV, SIG_DFL)
            raise(SIGSEGV)
        }
        let output = Mutex(FileHandle.standardOutput)
        let emit: @Sendable (MediaWorkEvent) -> Void = { event in
            guard let line = try? event.line() else { return }
            output.withLock { $0.write(Data((line + "\n").utf8)) }
        }
        let outcome = await decoded.perform(with: BundlePackager(), emit: emit)
        emit(outcome)
    }
}
