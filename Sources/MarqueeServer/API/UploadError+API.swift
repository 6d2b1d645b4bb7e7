import HTTPTypes
public import Library

extension UploadError: APIErrorConvertible {
    /// A wrong offset is 409 with the offset the server has (`Upload-Offset`), so the client
    /// can resume from it; a busy or unfinished upload 409 with its own code; more than the
    /// disk can take 413 (a 4xx, as nginx's body limit is).
    public var apiError: APIError {
        switch self {
        case .notFound: APIError(.notFound, description)
        case .invalidRange, .chunkTooLong, .invalidFileName: APIError(.badRequest, description)
        case .offsetMismatch(let expected, _):
            APIError(.conflict, description, code: "offset-mismatch", headers: [UploadHeader.offset: String(expected)])
        case .busy: APIError(.conflict, description, code: "upload-busy")
        case .incomplete: APIError(.conflict, description, code: "upload-incomplete")
        case .insufficientSpace: APIError(.contentTooLarge, description, code: "insufficient-space")
        }
    }
}
