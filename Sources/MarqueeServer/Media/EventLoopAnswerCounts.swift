import Atomics
import HTTPTypes

/// What `CachedMediaAnswers` answered on the event loop, by method and status, and the bytes
/// it sent: relaxed atomic additions only (no lock, no allocation per request), folded into
/// the metrics when they are scraped.
final class EventLoopAnswerCounts: Sendable {
    /// The route template these answers are counted under: the router's for bundle files.
    static let route = "/media/{asset}/**"
    static let methods = ["GET", "HEAD"]
    static let statuses = [200, 206, 304]

    private let requests: [ManagedAtomic<Int>]
    private let bytes: [ManagedAtomic<Int>]

    init() {
        let slots = Self.methods.count * Self.statuses.count
        requests = (0..<slots).map { _ in ManagedAtomic(0) }
        bytes = (0..<slots).map { _ in ManagedAtomic(0) }
    }

    /// Counts one answer.
    func record(method: HTTPRequest.Method, status: HTTPResponse.Status, bytes sent: Int) {
        let methodIndex = method == .head ? 1 : 0
        let statusIndex: Int
        switch status.code {
        case 206: statusIndex = 1
        case 304: statusIndex = 2
        default: statusIndex = 0
        }
        let slot = methodIndex * Self.statuses.count + statusIndex
        requests[slot].wrappingIncrement(ordering: .relaxed)
        if sent > 0 { bytes[slot].wrappingIncrement(by: sent, ordering: .relaxed) }
    }

    /// The counts since the last call, each reset to zero as it is read.
    func take() -> [(method: String, status: Int, requests: Int, bytes: Int)] {
        var result: [(method: String, status: Int, requests: Int, bytes: Int)] = []
        for (methodIndex, method) in Self.methods.enumerated() {
            for (statusIndex, status) in Self.statuses.enumerated() {
                let slot = methodIndex * Self.statuses.count + statusIndex
                result.append(
                    (method, status, requests[slot].exchange(0, ordering: .relaxed), bytes[slot].exchange(0, ordering: .relaxed)))
            }
        }
        return result
    }
}
