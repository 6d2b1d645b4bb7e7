import Foundation

/// What went wrong with a call to the download service, by the HTTP status it maps to.
public enum DownloadServiceError: Error, Sendable, Hashable {
    case notFound(String)
    /// Bad input; `column` (1-based) points into a predicate.
    case invalid(String, column: Int?)
    case conflict(String)
    /// The stream could not be read (network, HTTP status, not a playlist, live).
    case unusableStream(String)

    /// The sentence the client sees in the error body.
    public var message: String {
        switch self {
        case .notFound(let m), .invalid(let m, _), .conflict(let m), .unusableStream(let m): m
        }
    }
}

/// A change the download page hears about over Server-Sent Events.
public enum DownloadEvent: Sendable, Hashable {
    case changed(DownloadSnapshot, diskUsage: Int64)
    case removed(id: String, diskUsage: Int64)
}

/// A predicate checked as it is typed: valid, or the message and the 1-based column; for a
/// valid one and a stream inspected before, whether it matches and which variant it picks.
public struct PredicateCheck: Codable, Sendable, Hashable {
    /// Whether the predicate parses; an empty predicate is valid (no preference).
    public var valid: Bool
    /// What is wrong with an invalid predicate; `nil` when valid.
    public var message: String?
    /// The 1-based column of the problem in an invalid predicate, when known.
    public var column: Int?
    /// Whether some variant of the inspected stream satisfies it; `nil` when no inspected stream
    /// was named (or it was forgotten) or the predicate is empty.
    public var matches: Bool?
    /// The index (in the inspection's list) of the variant a download would take.
    public var chosen: Int?
}
