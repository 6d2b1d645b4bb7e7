import Foundation

/// What went wrong with a call to the download service, by the HTTP status it maps to.
public enum DownloadServiceError: Error, Sendable, Hashable {
    case notFound(String)
    /// Bad input; `column` (1-based) points into a predicate.
    case invalid(String, column: Int?)
    case conflict(String)
    /// The stream could not be read (network, HTTP status, not a playlist, live).
    case unusableStream(String)

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
    public var valid: Bool
    public var message: String?
    public var column: Int?
    public var matches: Bool?
    /// The index (in the inspection's list) of the variant a download would take.
    public var chosen: Int?
}
