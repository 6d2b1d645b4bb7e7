import Synchronization

/// A one-way flag set when the Swift task that owns some libav* work is cancelled.
///
/// FFmpeg polls it through the AVIO interrupt callback during blocking reads and MediaCore's
/// decode loops check it between packets, so cancellation ends slow work promptly.
public final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)

    /// A flag not set.
    public init() {}

    /// Whether the flag was set; safe to read from any thread.
    public var isCancelled: Bool { state.load(ordering: .relaxed) }

    /// Sets the flag, for good; safe from any thread.
    public func cancel() { state.store(true, ordering: .relaxed) }

    /// Throws `CancellationError` once the flag is set.
    public func check() throws(CancellationError) {
        if isCancelled { throw CancellationError() }
    }
}
