public import Foundation

/// Probes and packages in a child process, so a file that crashes FFmpeg's libraries (a bad
/// pointer, a double free, an abort) ends only that child: the job fails with
/// `MediaWorkCrashed` and the server or worker that asked keeps running.
///
/// The child is `executable media-work REQUEST` (the `marquee` binary itself by default): it
/// runs `BundlePackager` on the request and prints `MediaWorkEvent` JSON lines. Cancelling the
/// calling task tears the child down, so the ingest watchdog stops a hanging file too.
public struct IsolatedBundlePackager: BundlePackaging {
    /// The program that does the work (`marquee`).
    public let executable: String
    /// The arguments before the request (`["media-work"]`).
    public let arguments: [String]

    public init(executable: String, arguments: [String] = ["media-work"]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// This running program's own executable, for spawning it as its own child.
    ///
    /// On Linux that is `/proc/self/exe` itself, not the path it names: an upgrade replaces
    /// the file at that path (the link then reads `… (deleted)`), and a child started from the
    /// path would fail to start or be the new version, speaking another protocol to this one.
    /// `/proc/self/exe` opens the file this process runs, replaced or not.
    public static func currentExecutable() -> String {
        let own = "/proc/self/exe"
        if FileManager.default.isExecutableFile(atPath: own) { return own }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: own)) ?? CommandLine.arguments[0]
    }

    public func probe(_ source: URL) async throws -> MediaProbe {
        guard case .probed(let probe) = try await perform(.probe(source: source.path), progress: nil) else {
            throw MediaWorkCrashed(request: .probe(source: source.path), signal: nil, detail: "the media worker answered out of turn")
        }
        return probe
    }

    public func package(
        _ source: URL, probe: MediaProbe, into bundle: URL,
        progress: @escaping @Sendable (PackagingProgress) async -> Void
    ) async throws -> PackagedBundle {
        let request = MediaWorkRequest.package(source: source.path, probe: probe, bundle: bundle.path)
        guard case .packaged(let packaged) = try await perform(request, progress: progress) else {
            throw MediaWorkCrashed(request: request, signal: nil, detail: "the media worker answered out of turn")
        }
        return packaged
    }

    public func decorate(bundle: URL, duration: Double, artwork: String?) async throws -> PackagedBundle {
        let request = MediaWorkRequest.decorate(bundle: bundle.path, duration: duration, artwork: artwork)
        guard case .packaged(let packaged) = try await perform(request, progress: nil) else {
            throw MediaWorkCrashed(request: request, signal: nil, detail: "the media worker answered out of turn")
        }
        return packaged
    }

    /// Runs one request in a child and returns its outcome event; a child that dies or exits
    /// without an outcome is `MediaWorkCrashed`, a failure it reports is rethrown as the
    /// error it was in the child. The child's named phases and progress reach `progress`.
    func perform(_ request: MediaWorkRequest, progress: (@Sendable (PackagingProgress) async -> Void)?) async throws -> MediaWorkEvent {
        let encoded = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        let outcome = OutcomeBox()
        let ending = try await ProcessRunner(executable: executable).launch(arguments + [encoded]) { line in
            guard let event = try? JSONDecoder().decode(MediaWorkEvent.self, from: Data(line.utf8)) else { return }
            if case .progress(let reported) = event {
                await progress?(reported)
            } else {
                await outcome.set(event)
            }
        }
        let event = await outcome.event
        if ending.signal != nil || event == nil {
            throw MediaWorkCrashed(request: request, signal: ending.signal, detail: ending.standardErrorTail)
        }
        if case .failed(let failure) = event { throw failure.error }
        return event!
    }

    private actor OutcomeBox {
        var event: MediaWorkEvent?
        func set(_ event: MediaWorkEvent) { self.event = event }
    }
}

/// The child doing media work died (a signal: a crash in FFmpeg's libraries, or it was
/// killed) or ended without saying how the work went.
public struct MediaWorkCrashed: Error, Sendable, CustomStringConvertible {
    public var request: MediaWorkRequest
    /// The signal that ended the child, when one did.
    public var signal: Int32?
    /// The end of the child's standard error (FFmpeg's last words, a sanitizer report).
    public var detail: String

    public var description: String {
        let how = signal.map { "was ended by signal \($0)" } ?? "ended without an answer"
        let tail = detail.isEmpty ? "" : ": \(detail.suffix(600))"
        return "the media worker that tried to \(request.step) \(request.subject) \(how)\(tail)"
    }
}
