public import Foundation

/// When and how long to wait before trying a request again: exponential backoff with full
/// jitter for server errors, timeouts and dropped connections; the server's Retry-After for
/// 429 and 503; no retry for any other 4xx.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maximumAttempts: Int
    /// The backoff before the second attempt, in seconds, before jitter; it doubles each attempt.
    public var initialDelay: Double
    /// The longest backoff, in seconds, before jitter.
    public var maximumDelay: Double
    /// Longest Retry-After honoured, seconds.
    public var maximumRetryAfter: Double

    /// A policy with the given limits (delays in seconds).
    public init(maximumAttempts: Int = 6, initialDelay: Double = 0.2, maximumDelay: Double = 8, maximumRetryAfter: Double = 60) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// What a failed attempt was.
    public enum Failure: Sendable, Hashable {
        case status(Int, retryAfter: Double?)
        case transport
        case truncated
    }

    /// The delay before attempt `attempt + 1` (attempts count from 1), or nil to give up.
    /// `random` is a number in 0..<1 (injected so tests are deterministic).
    public func delay(after failure: Failure, attempt: Int, random: Double) -> Double? {
        guard attempt < maximumAttempts else { return nil }
        let backoff = min(maximumDelay, initialDelay * pow(2, Double(attempt - 1))) * random
        switch failure {
        case .status(let code, let retryAfter):
            if code == 429 || code == 503, let retryAfter { return min(max(retryAfter, 0), maximumRetryAfter) }
            if code == 429 || code >= 500 { return backoff }
            return nil
        case .transport, .truncated:
            return backoff
        }
    }

    /// Parses a Retry-After header: delta-seconds or an HTTP date.
    public static func retryAfter(_ header: String?, now: Date = Date()) -> Double? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        if let seconds = Double(header) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: header).map { max(0, $0.timeIntervalSince(now)) }
    }
}
