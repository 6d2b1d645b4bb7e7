/// A service the library depends on — its database or its media storage — did not answer, or
/// answered that it cannot serve now. The request may well succeed later, so a server answers
/// `503 Service Unavailable` with a sentence naming the service, never the service's own text
/// (which may hold addresses, bucket names or key layouts); `detail` is for the log.
public struct ServiceUnavailable: Error, Sendable, CustomStringConvertible {
    /// Which service failed, as a person would name it.
    public enum Service: String, Sendable {
        case database
        case mediaStorage = "media storage"
    }

    public let service: Service
    /// What the service's client said, for the server's log only.
    public let detail: String

    public init(_ service: Service, detail: String) {
        self.service = service
        self.detail = detail
    }

    public var description: String { "the \(service.rawValue) did not answer: \(detail)" }
}

/// An error that may mean a service did not answer (a store's own error type knows whether it
/// is an outage or a refusal); `unavailable` is nil when it is not an outage.
public protocol ServiceUnavailableConvertible: Error {
    var unavailable: ServiceUnavailable? { get }
}
