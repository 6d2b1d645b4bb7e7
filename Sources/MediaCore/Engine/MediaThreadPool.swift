import Foundation
import Synchronization

/// A bounded pool of dedicated threads on which all libav* work runs.
///
/// FFmpeg's calls block (file and network reads, decoding), so MediaCore never makes them on
/// Swift's cooperative pool or on an event loop. Work submitted with `run(_:)` waits its turn
/// on one of the pool's threads; cancelling the submitting task sets the `CancellationFlag`
/// handed to the work, which FFmpeg polls through the AVIO interrupt callback.
public final class MediaThreadPool: @unchecked Sendable {
    /// The process-wide pool: one thread per core, at least two.
    public static let shared = MediaThreadPool(
        threadCount: max(2, ProcessInfo.processInfo.activeProcessorCount), name: "marquee.media")

    public let threadCount: Int
    private let condition = NSCondition()
    private var jobs: [(@Sendable () -> Void)?] = []
    private var head = 0

    public init(threadCount: Int, name: String = "marquee.media") {
        precondition(threadCount > 0, "a thread pool needs at least one thread")
        self.threadCount = threadCount
        for index in 0..<threadCount {
            let threadName = "\(name).\(index)"
            let thread = Thread { [self] in
                // Named from inside so the OS thread (top, gdb, /proc) carries the name too; a
                // new Linux thread starts with its creator's name (often a cooperative-pool
                // thread's), so set the kernel name directly before taking any job.
                #if os(Linux)
                try? String(threadName.prefix(15)).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
                #endif
                Thread.current.name = threadName
                self.workLoop()
            }
            thread.name = threadName
            thread.stackSize = 8 << 20
            thread.start()
        }
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
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func workLoop() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]!
            // Drop the queue's reference at once: a job's closure may hold large values.
            jobs[head] = nil
            head += 1
            if head > 64 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
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
