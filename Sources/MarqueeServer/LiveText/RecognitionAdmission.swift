/// How many frames each client may have read at once (cache misses only: an answer from the
/// cache costs nothing). A frame can take seconds of CPU and hundreds of megabytes on a large
/// video, so one client asking for many distinct frames must not take every reader.
///
/// A value: the service asks `admit` before reading and calls `finished` after, whatever
/// happened; the machine decides, the service does the work.
struct RecognitionAdmission: Sendable, Hashable {
    /// Readings one client may have in progress.
    let limitPerClient: Int
    private(set) var reading: [String: Int] = [:]

    init(limitPerClient: Int = 2) {
        self.limitPerClient = max(1, limitPerClient)
    }

    /// Whether `client` may start reading a frame now; when it may, its count goes up.
    mutating func admit(_ client: String) -> Bool {
        let current = reading[client, default: 0]
        guard current < limitPerClient else { return false }
        reading[client] = current + 1
        return true
    }

    /// A reading `admit` let start has ended (answered, failed or cancelled).
    mutating func finished(_ client: String) {
        let remaining = reading[client, default: 0] - 1
        reading[client] = remaining > 0 ? remaining : nil
    }
}
