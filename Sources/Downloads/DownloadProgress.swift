import Foundation

/// A snapshot of a download's progress, as the `AsyncSequence` of a task delivers it and
/// `marquee download` draws it.
public struct DownloadProgress: Sendable, Hashable {
    /// Where the download is: reading playlists, fetching files, held by `pause()` while the
    /// files already in flight finish (`pausing`) and then with none in flight (`paused`: the
    /// counters stand still), writing the bundle's own files, done.
    public enum Phase: String, Sendable, Hashable { case planning, downloading, pausing, paused, finishing, finished }

    /// Where the download is.
    public var phase: Phase
    /// Files complete so far (resumed files included).
    public var completedFiles: Int
    /// Files the download fetches in all; 0 until planning is done.
    public var totalFiles: Int
    /// Bytes in the bundle so far (resumed files included).
    public var bytesWritten: Int64
    /// Best estimate of the bundle's final size: from the sizes seen so far once there are
    /// some, else from the variants' declared bandwidth × duration.
    public var expectedBytes: Int64?
    /// Throughput of this run, bytes per second.
    public var bytesPerSecond: Double
    /// Seconds left at the current throughput; nil until it can be estimated.
    public var estimatedTimeRemaining: Double?
    /// How many requests were retried so far.
    public var retries: Int

    /// A snapshot with the given values.
    public init(
        phase: Phase, completedFiles: Int, totalFiles: Int, bytesWritten: Int64, expectedBytes: Int64?,
        bytesPerSecond: Double, estimatedTimeRemaining: Double?, retries: Int
    ) {
        self.phase = phase
        self.completedFiles = completedFiles
        self.totalFiles = totalFiles
        self.bytesWritten = bytesWritten
        self.expectedBytes = expectedBytes
        self.bytesPerSecond = bytesPerSecond
        self.estimatedTimeRemaining = estimatedTimeRemaining
        self.retries = retries
    }

    /// Done, from 0 to 1: files complete over files in all — a count whose total is fixed once
    /// planning is done, unlike `expectedBytes`, an estimate that moves as sizes are seen; so a
    /// percentage shown beside "4 of 10 files" says the same thing.
    public var fractionCompleted: Double {
        totalFiles == 0 ? 0 : min(1, Double(completedFiles) / Double(totalFiles))
    }
}
