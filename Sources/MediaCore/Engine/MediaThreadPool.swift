import Foundation
import NIOPosix
import Synchronization

/// A bounded pool of dedicated threads on which all libav* work runs.
///
/// FFmpeg's calls block (file and network reads, decoding), so MediaCore never makes them on
/// Swift's cooperative pool or on an event loop. The threads are SwiftNIO's `NIOThreadPool`
/// (NIO's own home for blocking work); this type adds what FFmpeg needs on top: a result
/// handed back to an async caller and a cancellation flag the work can poll. Work submitted with `run(_:)` waits its turn
/// on one of the pool's threads; cancelling the submitting task sets the `CancellationFlag`
/// handed to the work, which FFmpeg polls through the AVIO interrupt callback.
public final class MediaThreadPool: Sendable {
    /// The process-wide pool: one thread per core, at least two.
    public static let shared = MediaThreadPool(
        threadCount: max(2, ProcessInfo.processInfo.activeProcessorCount), name: "marquee.media")

    /// How many jobs run at once.
    public let threadCount: Int
    /// What the pool's threads are for, as logs and crash reports name them.
    public let name: String
    /// SwiftNIO's pool of dedicated threads: a job waits its turn in NIO's queue and a job
    /// cancelled before it starts is answered without running (`runIfActive`'s rule).
    private let threads: NIOThreadPool

    public init(threadCount: Int, name: String = "marquee.media") {
        precondition(threadCount > 0, "a thread pool needs at least one thread")
        self.threadCount = threadCount
        self.name = name
        threads = NIOThreadPool(numberOfThreads: threadCount)
        // Threads named "<name>.<index>" (top, gdb and crash reports show what they are for);
        // Linux keeps 15 bytes of a thread's name. NIO's public, if underscored, way to name them.
        threads._start(threadNamePrefix: String(name.prefix(12)) + ".")
    }

    deinit {
        // No `run` can be waiting (it holds the pool), so only already-queued `enqueue` jobs
        // remain; they still run (see `enqueue`) before the threads end.
        threads.shutdownGracefully { _ in }
    }

    /// Runs `body` on a pool thread and returns its result. If the calling task is cancelled,
    /// the flag passed to `body` is set; a job still waiting for a thread ends at once with
    /// `CancellationError` and never runs.
    public func run<T: Sendable>(
        _ body: @escaping @Sendable (CancellationFlag) throws -> T
    ) async throws -> T {
        let flag = CancellationFlag()
        let job = PendingJob<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                guard job.install(continuation) else { return }
                enqueue {
                    guard job.start() else { return }
                    do {
                        let value = try body(flag)
                        job.finish(.success(value))
                    } catch {
                        job.finish(.failure(flag.isCancelled ? CancellationError() : error))
                    }
                }
            }
        } onCancel: {
            flag.cancel()
            job.cancelIfWaiting()
        }
    }

    /// Queues `job` to run on a pool thread; used for long-lived work such as image sequences.
    /// A job is never dropped: one still queued when the pool's owner lets go of it runs
    /// during the shutdown, so whoever waits on it (a continuation, a stream) is answered.
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        threads.submit { _ in job() }
    }
}

/// The continuation of one `run` call and whether its job is waiting, running or done, so
/// that cancellation can answer a job that has not started yet.
private final class PendingJob<T: Sendable>: Sendable {
    private enum Phase { case new, waiting, running, done }
    private struct State {
        var phase = Phase.new
        var continuation: CheckedContinuation<T, any Error>?
        var cancelledEarly = false
    }
    private let state = Mutex(State())

    /// Stores the continuation; false (after resuming it) when cancellation came first.
    func install(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let installed = state.withLock { state -> Bool in
            if state.cancelledEarly {
                state.phase = .done
                return false
            }
            state.continuation = continuation
            state.phase = .waiting
            return true
        }
        if !installed { continuation.resume(throwing: CancellationError()) }
        return installed
    }

    /// Marks the job running; false when it was cancelled while waiting.
    func start() -> Bool {
        state.withLock { state in
            guard state.phase == .waiting else { return false }
            state.phase = .running
            return true
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let continuation = state.withLock { state in
            defer {
                state.continuation = nil
                state.phase = .done
            }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    func cancelIfWaiting() {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            switch state.phase {
            case .new:
                state.cancelledEarly = true
                return nil
            case .waiting:
                defer {
                    state.continuation = nil
                    state.phase = .done
                }
                return state.continuation
            case .running, .done:
                return nil
            }
        }
        continuation?.resume(throwing: CancellationError())
    }
}
