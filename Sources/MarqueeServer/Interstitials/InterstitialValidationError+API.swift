import HTTPTypes
public import Library

extension InterstitialValidationError: APIErrorConvertible {
    /// 400 for an event it refuses or an ad asset it does not know, 409 for one overlapping
    /// another, 404 for an unknown event.
    public var apiError: APIError {
        switch self {
        case .invalid, .unknownAsset: APIError(.badRequest, description)
        case .overlapping: APIError(.conflict, description)
        case .notFound: APIError(.notFound, description)
        }
    }
}
