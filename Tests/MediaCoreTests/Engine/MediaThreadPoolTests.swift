import Foundation
import MediaTesting
import Synchronization
import Testing

@testable import MediaCore

@Suite struct MediaThreadPoolTests {
    final class Payload: Sendable {}

    static func currentThreadName() -> String {
        // The kernel's name for the calling thread (Linux).
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func workRunsOnThePoolsOwnNamedThreads() async throws {
        let pool = MediaThreadPool(threadCount: 2, name: "test.pool")
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 { group.addTask { try await pool.run { _ in Self.currentThreadName() } } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(!names.isEmpty && names.isSubset(of: ["test.pool.0", "test.pool.1"]), "\(names)")
    }

    @Test func finishedJobsReleaseWhatTheyCaptured() async throws {
        let pool = MediaThreadPool(threadCount: 1)
        weak var released: Payload?
        do {
            let payload = Payload()
            released = payload
            try await pool.run { _ in _ = payload }
        }
        // The queue must not keep the closure (and a captured decoded image) alive.
        try await pool.run { _ in }
        #expect(released == nil)
    }

    @Test func aJobWaitingForAThreadIsCancelledAtOnceAndNeverRuns() async throws {
        let pool = MediaThreadPool(threadCount: 1)
        let secondRan = Atomic<Bool>(false)
        let blocking = Atomic<Bool>(false)
        let blockerDone = Atomic<Bool>(false)
        let blocker = Task {
            try await pool.run { flag in
                blocking.store(true, ordering: .relaxed)
                // Busy work on the pool's thread until it is cancelled, checking as media work does.
                while !flag.isCancelled { usleep(5_000) }
                blockerDone.store(true, ordering: .relaxed)
            }
        }
        try await eventually("the first job to hold the pool's only thread") { blocking.load(ordering: .relaxed) }
        let waiting = Task { try await pool.run { _ in secondRan.store(true, ordering: .relaxed) } }
        // The pool does not show its queue: a moment of real time for the job to be queued behind it.
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        // "At once": while the only thread is still busy (it stays busy until the blocker is
        // cancelled below), not when it frees up — an order, not a time, so load cannot fail it.
        #expect(blockerDone.load(ordering: .relaxed) == false, "the cancelled job was let go while the thread was still busy")
        blocker.cancel()
        _ = try? await blocker.value
        try await pool.run { _ in }
        #expect(secondRan.load(ordering: .relaxed) == false)
    }
}
