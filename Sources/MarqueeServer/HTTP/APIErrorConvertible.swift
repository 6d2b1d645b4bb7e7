/// An error that says for itself how the API answers it, as Hummingbird's `HTTPResponseError`
/// does for a whole response: the feature that owns the error declares its status, stable code
/// and sentence beside it (`extension UploadError: APIErrorConvertible` lives with the upload
/// routes), so `HTTP/` knows no feature and no route needs a `catch` to translate.
///
/// `APIError.from` asks a conforming error for `apiError`; an error that does not conform and
/// that `HTTP/` does not know itself (body too large, undecodable JSON, a full disk) is an
/// internal failure, answered with a fixed sentence and logged in full.
public protocol APIErrorConvertible: Error {
    /// The answer a client gets: status, stable code, a plain sentence and any headers.
    var apiError: APIError { get }
}
