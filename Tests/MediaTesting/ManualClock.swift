public import Clocks
public import Foundation
import Synchronization
public import Testing

/// A clock that moves only when a test advances it: sleepers wake when `advance(by:)`
/// passes their deadline, in deadline order, and a cancelled sleeper wakes at once with
/// `CancellationError`.
public final class ManualClock: WallClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var elapsed: Duration = .zero
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        /// Sleepers cancelled before they were registered.
        var cancelledEarly: Set<UInt64> = []
    }
    private let start: Date
    private let state = Mutex(State())

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { self.start = start }

    public var now: Date {
        let elapsed = state.withLock { $0.elapsed }
        return start.addingTimeInterval(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    public var monotonicNow: Duration { state.withLock { $0.elapsed } }

    /// How many tasks are sleeping on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(for duration: Duration) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Bool, CancellationError> = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    if duration <= .zero { return .success(true) }
                    state.sleepers.append(Sleeper(id: id, deadline: state.elapsed + duration, continuation: continuation))
                    return .success(false)
                }
                switch outcome {
                case .failure(let error): continuation.resume(throwing: error)
                case .success(true): continuation.resume()
                case .success(false): break
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes every sleeper whose time has come.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.elapsed += duration
            let due = state.sleepers.filter { $0.deadline <= state.elapsed }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= state.elapsed }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Moves the clock forward by `seconds`.
    public func advance(_ seconds: TimeInterval) { advance(by: .milliseconds(Int64((seconds * 1000).rounded()))) }

    /// Waits (in real time, briefly) until `count` tasks sleep on this clock, so a test
    /// advances it only once the code under test is waiting; fails the test at the caller's
    /// line when they do not within `timeout`.
    public func waitForSleepers(
        _ count: Int = 1, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await eventually(
            "\(count) task(s) sleeping on the manual clock", within: timeout, pollingEvery: .milliseconds(1), sourceLocation: sourceLocation
        ) { sleeperCount >= count }
    }
}
