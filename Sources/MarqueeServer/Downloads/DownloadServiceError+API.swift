import HTTPTypes

extension DownloadServiceError: APIErrorConvertible {
    /// 404 for an unknown download, 400 for a request it refuses, 409 for an action its state
    /// does not allow, 422 for a stream it cannot download.
    public var apiError: APIError {
        switch self {
        case .notFound(let message): APIError(.notFound, message)
        case .invalid(let message, _): APIError(.badRequest, message)
        case .conflict(let message): APIError(.conflict, message)
        case .unusableStream(let message): APIError(.unprocessableContent, message)
        }
    }
}
