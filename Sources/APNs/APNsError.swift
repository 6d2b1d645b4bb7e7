public import Foundation

/// A push refused before it was sent, or a channel request APNs turned down.
public enum APNsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Larger than APNs accepts; not sent.
    case payloadTooLarge(bytes: Int, limit: Int)
    case invalidNotification(String)
    /// APNs answered with an error status and reason.
    case rejected(status: Int, reason: String?)
    case transport(String)

    /// One sentence for a person or a log.
    public var description: String {
        switch self {
        case .payloadTooLarge(let bytes, let limit): "The push payload is \(bytes) bytes; APNs accepts at most \(limit), so it was not sent"
        case .invalidNotification(let message): message
        case .rejected(let status, let reason): "APNs answered \(status)\(reason.map { " \($0)" } ?? "")"
        case .transport(let message): "Could not reach APNs: \(message)"
        }
    }
}

/// What became of one push, after any retries.
public struct PushResult: Sendable, Hashable, Codable {
    /// The outcome, and what the caller should do about the token.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// APNs accepted it (200).
        case delivered
        /// 410: the token is no longer valid; delete it.
        case unregistered
        /// 429: too many pushes to this token; it is backed off until `retryAfter`.
        case throttled
        /// A 4xx that sending again would not change (BadDeviceToken, DeviceTokenNotForTopic,
        /// Forbidden, PayloadTooLarge, …); never retried.
        case rejected
        /// 5xx or the network, still failing after the retries.
        case failed
        /// Not sent: the payload broke a rule, or the token is backed off.
        case refused
    }

    /// What became of the push.
    public var kind: Kind
    /// APNs' last HTTP status; nil when it never answered.
    public var status: Int?
    /// APNs' last `reason` (`BadDeviceToken`), or what went wrong on the way.
    public var reason: String?
    /// `apns-id` of the request (APNs echoes it), for finding the push in Apple's console.
    public var apnsID: String
    /// How many times it was sent (0 when refused before sending).
    public var attempts: Int
    /// The `apns-priority` it was sent with: 10 (at once) or 5 (when convenient for the device).
    public var priority: Int
    /// Until when the token is backed off, after a 429.
    public var retryAfter: Date?

    /// A result with the given values.
    public init(kind: Kind, status: Int? = nil, reason: String? = nil, apnsID: String, attempts: Int, priority: Int, retryAfter: Date? = nil) {
        self.kind = kind
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.attempts = attempts
        self.priority = priority
        self.retryAfter = retryAfter
    }
}

/// APNs' reasons that no retry can fix.
enum APNsReason {
    static let neverRetried: Set<String> = [
        "BadDeviceToken", "DeviceTokenNotForTopic", "Forbidden", "PayloadTooLarge", "Unregistered", "BadTopic",
        "TopicDisallowed", "InvalidPushType", "BadPriority", "BadExpirationDate", "BadMessageId", "MissingTopic",
        "InvalidProviderToken", "MissingProviderToken", "BadPath", "MethodNotAllowed", "PayloadEmpty", "ExpiredToken",
    ]
}
