import HTTPTypes
public import Library

extension InterstitialValidationError: APIErrorConvertible {
    /// 400 for an event it refuses; 409 for one overlapping another, one that does not fit the
    /// asset as it is (past its end, before it has a length, one too many), or whose ad is no
    /// asset in the library (the library's state, not the request's shape: the document cannot say
    /// which IDs exist, so a well-formed event naming a missing ad is not a 400); 404 for an
    /// unknown event.
    public var apiError: APIError {
        switch self {
        case .invalid: APIError(.badRequest, description)
        case .unknownAsset: APIError(.conflict, description, code: "ad-asset-not-found")
        case .doesNotFit: APIError(.conflict, description, code: "break-does-not-fit")
        case .overlapping: APIError(.conflict, description)
        case .notFound: APIError(.notFound, description)
        }
    }
}
