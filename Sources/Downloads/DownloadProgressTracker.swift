import Clocks
import Foundation

/// Keeps the counters of one download and publishes snapshots: to the task's
/// `AsyncStream` and to its Foundation `Progress` (file counts as units, bytes and
/// throughput in `userInfo`-free properties). Throughput and the time remaining are
/// measured on `clock` (a manual clock in tests).
actor DownloadProgressTracker {
    private var snapshot = DownloadProgress(
        phase: .planning, completedFiles: 0, totalFiles: 0, bytesWritten: 0,
        expectedBytes: nil, bytesPerSecond: 0, estimatedTimeRemaining: nil, retries: 0)
    private var bandwidthEstimate: Int64?
    private var bytesThisRun: Int64 = 0
    private let clock: any WallClock
    private var startedAt: Date
    private var sizedFiles = 0
    private var sizedBytes: Int64 = 0
    private let continuation: AsyncStream<DownloadProgress>.Continuation
    private let progress: Progress
    /// Files being fetched now.
    private var inFlight = 0
    /// Held by `pause()`: the phase is `pausing` while files are in flight, then `paused`.
    private var held = false

    init(continuation: AsyncStream<DownloadProgress>.Continuation, progress: Progress, clock: any WallClock = SystemClock()) {
        self.clock = clock
        startedAt = clock.now
        self.continuation = continuation
        self.progress = progress
    }

    var current: DownloadProgress { snapshot }

    func start(totalFiles: Int, alreadyDone: Int, alreadyBytes: Int64, bandwidthEstimate: Int64?) {
        snapshot.phase = .downloading
        snapshot.totalFiles = totalFiles
        snapshot.completedFiles = alreadyDone
        snapshot.bytesWritten = alreadyBytes
        sizedFiles = alreadyDone
        sizedBytes = alreadyBytes
        self.bandwidthEstimate = bandwidthEstimate
        startedAt = clock.now
        publish()
    }

    /// A worker started fetching a file.
    func fileStarted() {
        inFlight += 1
        if held, snapshot.phase == .paused { phase(.pausing) }
    }

    /// A file's fetch ended without completing it (the download is failing or cancelled).
    func fileAbandoned() {
        inFlight = max(0, inFlight - 1)
        settlePause()
    }

    func fileCompleted(bytes: Int64) {
        inFlight = max(0, inFlight - 1)
        if held, inFlight == 0 { snapshot.phase = .paused }
        snapshot.completedFiles += 1
        snapshot.bytesWritten += bytes
        bytesThisRun += bytes
        sizedFiles += 1
        sizedBytes += bytes
        publish()
    }

    func retried() {
        snapshot.retries += 1
        publish()
    }

    func phase(_ phase: DownloadProgress.Phase) {
        snapshot.phase = phase
        publish()
    }

    /// Held by `pause()`: `pausing` until the files in flight are done, then `paused`.
    func pause() {
        held = true
        phase(inFlight > 0 ? .pausing : .paused)
    }

    /// Let go by `resume()`: downloading again.
    func resume() {
        held = false
        phase(.downloading)
    }

    private func settlePause() {
        if held, inFlight == 0, snapshot.phase == .pausing { phase(.paused) }
    }

    func finish() {
        snapshot.phase = .finished
        snapshot.expectedBytes = snapshot.bytesWritten
        snapshot.estimatedTimeRemaining = 0
        publish()
        continuation.finish()
    }

    func fail() { continuation.finish() }

    private func publish() {
        let elapsed = max(clock.now.timeIntervalSince(startedAt), 0.001)
        snapshot.bytesPerSecond = Double(bytesThisRun) / elapsed
        if sizedFiles >= 3, snapshot.totalFiles > 0 {
            snapshot.expectedBytes = Int64(Double(sizedBytes) / Double(sizedFiles) * Double(snapshot.totalFiles))
        } else {
            snapshot.expectedBytes = bandwidthEstimate
        }
        if let expected = snapshot.expectedBytes, snapshot.bytesPerSecond > 0 {
            snapshot.estimatedTimeRemaining = max(0, Double(expected - snapshot.bytesWritten) / snapshot.bytesPerSecond)
        }
        progress.totalUnitCount = Int64(snapshot.totalFiles)
        progress.completedUnitCount = Int64(snapshot.completedFiles)
        progress.setUserInfoObject(NSNumber(value: snapshot.bytesPerSecond), forKey: .throughputKey)
        progress.setUserInfoObject(snapshot.estimatedTimeRemaining.map { NSNumber(value: $0) }, forKey: .estimatedTimeRemainingKey)
        progress.setUserInfoObject(NSNumber(value: snapshot.completedFiles), forKey: .fileCompletedCountKey)
        continuation.yield(snapshot)
    }
}
