import Foundation
import MediaTesting
import Testing

@testable import Downloads

/// Throughput and the time remaining, on a manual clock: what `marquee download` and the
/// Downloading activity show as "N s left".
@Suite("Download progress")
struct DownloadProgressTrackerTests {
    @Test func theTimeRemainingFollowsTheThroughputSinceTheStart() async throws {
        let clock = ManualClock()
        let (stream, continuation) = AsyncStream.makeStream(of: DownloadProgress.self)
        let tracker = DownloadProgressTracker(continuation: continuation, progress: Progress(totalUnitCount: 0), clock: clock)
        await tracker.start(totalFiles: 10, alreadyDone: 0, alreadyBytes: 0, bandwidthEstimate: nil)
        clock.advance(2)
        for _ in 0..<3 { await tracker.fileCompleted(bytes: 1000) }
        // 3,000 bytes in 2 s; 10 files of about 1,000 bytes: 7,000 bytes left at 1,500 B/s.
        var current = await tracker.current
        #expect(current.bytesPerSecond == 1500)
        #expect(current.expectedBytes == 10_000)
        #expect(abs((current.estimatedTimeRemaining ?? -1) - 7000.0 / 1500) < 0.001)
        // Nothing arrives for 4 s: the throughput falls and the estimate grows.
        clock.advance(4)
        await tracker.retried()
        current = await tracker.current
        #expect(current.bytesPerSecond == 500)
        #expect(abs((current.estimatedTimeRemaining ?? -1) - 14) < 0.001)
        await tracker.finish()
        var last: DownloadProgress?
        for await snapshot in stream { last = snapshot }
        #expect(last?.phase == .finished)
    }
}

/// Pausing: files in flight finish ("pausing", the figures may still move), then the figures
/// stand still ("paused"); the percentage is files done over files in all, the same count the
/// page shows beside it.
@Suite("Download progress while pausing")
struct DownloadPausingTests {
    func tracker() -> DownloadProgressTracker {
        let (_, continuation) = AsyncStream.makeStream(of: DownloadProgress.self)
        return DownloadProgressTracker(continuation: continuation, progress: Progress(totalUnitCount: 0), clock: ManualClock())
    }

    @Test func pausingLastsUntilTheFilesInFlightAreDone() async {
        let tracker = tracker()
        await tracker.start(totalFiles: 10, alreadyDone: 0, alreadyBytes: 0, bandwidthEstimate: 50_000)
        await tracker.fileStarted()
        await tracker.fileStarted()
        await tracker.pause()
        #expect(await tracker.current.phase == .pausing)
        await tracker.fileCompleted(bytes: 1000)
        #expect(await tracker.current.phase == .pausing)
        await tracker.fileCompleted(bytes: 3000)
        var current = await tracker.current
        #expect(current.phase == .paused && current.completedFiles == 2)
        #expect(current.fractionCompleted == 0.2, "2 of 10 files, whatever their sizes")
        // A worker that got past the gate just before the pause: pausing again until it is done.
        await tracker.fileStarted()
        #expect(await tracker.current.phase == .pausing)
        await tracker.fileAbandoned()
        #expect(await tracker.current.phase == .paused)
        await tracker.resume()
        current = await tracker.current
        #expect(current.phase == .downloading && current.completedFiles == 2)
    }

    @Test func aPauseWithNothingInFlightIsPausedAtOnce() async {
        let tracker = tracker()
        await tracker.start(totalFiles: 4, alreadyDone: 1, alreadyBytes: 500, bandwidthEstimate: nil)
        await tracker.pause()
        #expect(await tracker.current.phase == .paused)
        #expect(await tracker.current.fractionCompleted == 0.25)
    }
}
