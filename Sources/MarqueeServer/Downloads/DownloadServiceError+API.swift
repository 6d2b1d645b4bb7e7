import HTTPTypes

extension DownloadServiceError: APIErrorConvertible {
    /// 404 for an unknown download, 400 for a request it refuses, 409 for an action its state
    /// does not allow, 422 for a stream it cannot download or a predicate that is not one (the
    /// request is well formed, a string as the document says; the instructions in it are not:
    /// a grammar is no JSON Schema pattern).
    public var apiError: APIError {
        switch self {
        case .notFound(let message): APIError(.notFound, message)
        case .invalid(let message, let column?) where column > 0: APIError(.unprocessableContent, message, code: "invalid-predicate")
        case .invalid(let message, _): APIError(.badRequest, message)
        case .conflict(let message): APIError(.conflict, message)
        case .unusableStream(let message): APIError(.unprocessableContent, message)
        }
    }
}
