import HTTPTypes
public import VisualAnalysis

extension LiveTextError: APIErrorConvertible {
    /// 403 for a protected asset or one whose owner disallowed frame analysis, 409 for one
    /// not ready or a request superseded by a newer one, 422 without video, 400 for a time
    /// that is not one, 429 while the client's recognitions are all busy.
    public var apiError: APIError {
        switch self {
        case .protected, .disallowed: APIError(.forbidden, description)
        case .notReady, .superseded: APIError(.conflict, description)
        case .noVideo: APIError(.unprocessableContent, description)
        case .badTime: APIError(.badRequest, description)
        case .busy: APIError(.tooManyRequests, description)
        }
    }
}

extension TextRecognitionError: APIErrorConvertible {
    /// Tesseract failing on a frame is the server's fault (500, with a code to tell it from
    /// other failures); a frame it may not analyse is 403.
    public var apiError: APIError {
        switch self {
        case .engine: APIError(.internalServerError, "Text recognition failed on this frame; the server's log says why", code: "text-recognition-failed")
        case .notAllowed: APIError(.forbidden, description)
        }
    }
}
