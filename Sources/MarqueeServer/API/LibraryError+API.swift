import HTTPTypes
public import Library

extension LibraryError: APIErrorConvertible {
    /// Unknown assets and jobs are 404, as is a path with nothing there; a path whose contents
    /// cannot be added is 409; a setting or request the library refuses is 400; a job that cannot be retried now is 409; media that cannot be read is 422.
    public var apiError: APIError {
        switch self {
        case .assetNotFound, .jobNotFound: APIError(.notFound, description)
        // What is (or is not) at a path is the server's state, not something a request's
        // shape can promise: nothing there is a 404, something that cannot be added a 409.
        case .sourceNotFound: APIError(.notFound, description, code: "source-not-found")
        case .unsupportedSource: APIError(.conflict, description, code: "not-media")
        case .unsafeBundle: APIError(.conflict, description, code: "unsafe-bundle")
        case .folderTooLarge: APIError(.conflict, description, code: "folder-too-large")
        case .invalidSettings, .invalidRequest: APIError(.badRequest, description)
        case .jobNotRetryable: APIError(.conflict, description)
        case .toolFailed: APIError(.internalServerError, description)
        case .mediaFailed: APIError(.unprocessableContent, description)
        }
    }
}
