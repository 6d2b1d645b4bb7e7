import HTTPTypes
public import Library

extension SubtitleFileError: APIErrorConvertible {
    /// A file that is no subtitle format is 415, one that reads but holds no cue 422, too
    /// large 413; a bad language or label 400; an unknown file 404; one too many 409.
    public var apiError: APIError {
        switch self {
        case .unknownFormat: APIError(.unsupportedMediaType, description, code: "not-subtitles")
        case .noCues: APIError(.unprocessableContent, description, code: "no-cues")
        case .tooLarge: APIError(.contentTooLarge, description)
        case .invalidLanguage, .invalidLabel: APIError(.badRequest, description)
        case .notFound: APIError(.notFound, description)
        case .tooMany: APIError(.conflict, description, code: "too-many-subtitles")
        }
    }
}
