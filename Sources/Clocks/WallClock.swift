public import Foundation

/// The time a component reads and waits on, so that tests can move it by hand.
///
/// Code whose behaviour depends on time passing (grace periods, stale dates, the 8-hour
/// limit of a Live Activity, retry backoff) asks its clock for the date and sleeps on it
/// instead of calling `Date()` and `Task.sleep`. The server passes `SystemClock`; tests pass
/// `ManualClock` (in the MediaTesting target), whose time moves only when the test advances
/// it, so a test of a ten-minute grace period takes no time and does not flake on a busy
/// machine.
public protocol WallClock: Sendable {
    /// The current date on this clock.
    var now: Date { get }
    /// Time since a fixed point of this clock that never jumps when the system date is set
    /// forward or back: what intervals (heartbeats, timeouts) are measured with.
    var monotonicNow: Duration { get }
    /// Suspends until `duration` has passed on this clock; throws `CancellationError` when the
    /// task is cancelled first.
    func sleep(for duration: Duration) async throws
}

/// The real clock: the system's date, and `Task.sleep` on the continuous clock.
public struct SystemClock: WallClock {
    /// The system clock.
    public init() {}
    /// The system's date.
    public var now: Date { Date() }
    /// Time on the continuous clock since the first time any `SystemClock` was asked.
    public var monotonicNow: Duration { ContinuousClock.now - Self.origin }
    private static let origin = ContinuousClock.now
    /// `Task.sleep(for:)`: real time; throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
