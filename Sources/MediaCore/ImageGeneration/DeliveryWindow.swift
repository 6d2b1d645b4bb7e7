import Foundation

/// Bounds how many results a producer thread may hand over before the consumer takes them.
///
/// The producer is a MediaCore pool thread, so waiting here blocks no Swift task; it wakes
/// when the consumer takes a result, when the sequence ends, or when the work is cancelled.
final class DeliveryWindow: @unchecked Sendable {
    private let condition = NSCondition()
    private let limit: Int
    private var outstanding = 0
    private var closed = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Waits until fewer than `limit` results are outstanding, then counts one more.
    func reserve(flag: CancellationFlag) {
        condition.lock()
        while outstanding >= limit && !closed && !flag.isCancelled {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        outstanding += 1
        condition.unlock()
    }

    /// The consumer took a result.
    func consumed() {
        condition.lock()
        outstanding -= 1
        condition.signal()
        condition.unlock()
    }

    /// Nobody will consume any more; stop waiting.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
