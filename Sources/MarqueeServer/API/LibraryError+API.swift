import HTTPTypes
public import Library

extension LibraryError: APIErrorConvertible {
    /// Unknown assets and jobs are 404; a source, bundle, setting or request the library
    /// refuses is 400; a job that cannot be retried now is 409; media that cannot be read is 422.
    public var apiError: APIError {
        switch self {
        case .assetNotFound, .jobNotFound: APIError(.notFound, description)
        case .sourceNotFound, .unsupportedSource, .unsafeBundle, .invalidSettings, .invalidRequest:
            APIError(.badRequest, description)
        case .jobNotRetryable: APIError(.conflict, description)
        case .toolFailed: APIError(.internalServerError, description)
        case .mediaFailed: APIError(.unprocessableContent, description)
        }
    }
}
