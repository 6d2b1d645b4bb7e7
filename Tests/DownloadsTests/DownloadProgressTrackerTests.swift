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
