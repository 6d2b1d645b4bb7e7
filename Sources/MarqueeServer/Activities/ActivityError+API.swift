public import APNs
import HTTPTypes
public import LiveActivities

extension ActivityError: APIErrorConvertible {
    /// 404 for an unknown activity, 400 for fields it refuses, 413 for a content state over
    /// APNs' size, 409 for a change to an activity that has ended.
    public var apiError: APIError {
        switch self {
        case .notFound: APIError(.notFound, description)
        case .invalid: APIError(.badRequest, description)
        case .contentStateTooLarge: APIError(.contentTooLarge, description)
        case .ended: APIError(.conflict, description)
        }
    }
}

extension APNsError: APIErrorConvertible {
    /// APNs refusing a request the server made for the client (a channel's creation or
    /// deletion) is a `502`: the gateway answered, and its answer is passed on.
    public var apiError: APIError {
        APIError(.badGateway, "APNs refused the request: \(description)", code: "apns-refused")
    }
}
