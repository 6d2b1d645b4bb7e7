import Foundation

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
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0

    public init(threadCount: Int, name: String = "marquee.media") {
        precondition(threadCount > 0, "a thread pool needs at least one thread")
        self.threadCount = threadCount
        for index in 0..<threadCount {
            let thread = Thread { [self] in self.workLoop() }
            thread.name = "\(name).\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Runs `body` on a pool thread and returns its result. If the calling task is cancelled,
    /// the flag passed to `body` is set and a job that has not started yet ends with
    /// `CancellationError` without running.
    public func run<T: Sendable>(
        _ body: @escaping @Sendable (CancellationFlag) throws -> T
    ) async throws -> T {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                enqueue {
                    if flag.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    do {
                        continuation.resume(returning: try body(flag))
                    } catch {
                        continuation.resume(throwing: flag.isCancelled ? CancellationError() : error)
                    }
                }
            }
        } onCancel: {
            flag.cancel()
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
            let job = jobs[head]
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
