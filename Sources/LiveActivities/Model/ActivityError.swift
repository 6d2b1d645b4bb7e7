import Foundation

/// Why a request about an activity was refused, in words a client can act on.
public enum ActivityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The encoded content state is larger than ActivityKit's 4 KB limit.
    case contentStateTooLarge(bytes: Int, limit: Int)
    case notFound(String)
    case invalid(String)
    /// The activity has ended; it takes no more updates.
    case ended(String)

    public var description: String {
        switch self {
        case .contentStateTooLarge(let bytes, let limit):
            "The content state is \(bytes) bytes of JSON; a Live Activity's content state may be at most \(limit) bytes"
        case .notFound(let id): "No live activity \(id)"
        case .invalid(let message): message
        case .ended(let id): "The live activity \(id) has ended and takes no more updates"
        }
    }
}
