import HTTPTypes
public import Library

extension UploadError: APIErrorConvertible {
    /// A wrong offset is 409 with the offset the server has (`Upload-Offset`), so the client
    /// can resume from it; a busy or unfinished upload 409 with its own code, as is a length
    /// the disk's free space rules out now.
    public var apiError: APIError {
        switch self {
        case .notFound: APIError(.notFound, description)
        case .invalidRange, .chunkTooLong, .invalidFileName: APIError(.badRequest, description)
        case .offsetMismatch(let expected, _):
            APIError(.conflict, description, code: "offset-mismatch", headers: [UploadHeader.offset: String(expected)])
        case .busy: APIError(.conflict, description, code: "upload-busy")
        case .incomplete: APIError(.conflict, description, code: "upload-incomplete")
        // A well-formed length the disk's free space rules out now (the document cannot state
        // a limit that changes with the disk): a conflict with the server's state, as 409s are.
        case .insufficientSpace: APIError(.conflict, description, code: "insufficient-space")
        }
    }
}
