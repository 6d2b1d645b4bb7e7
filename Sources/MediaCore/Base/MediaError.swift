/// An error from MediaCore: what failed, on which media, and FFmpeg's own message.
///
/// Every failure on bad input ends in one of these (or `CancellationError`), never a crash.
public struct MediaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    public enum Kind: String, Sendable, Hashable {
        case open, streamInfo, noVideoTrack, noAudioTrack, decode, encode, seek, noFrame
        case invalidTime, read, write, unsupported, invalidComposition, export, packaging
    }

    /// The step that failed.
    public var kind: Kind
    /// The media the error is about: a URL, a path, or a resource loader's description.
    public var url: String
    /// A human-readable explanation, including FFmpeg's message where there is one.
    public var message: String
    /// FFmpeg's (negative) error code, when the failure came from a libav* call.
    public var code: Int32?

    /// An error of `kind` about `url`.
    public init(_ kind: Kind, url: String, message: String, code: Int32? = nil) {
        self.kind = kind
        self.url = url
        self.message = message
        self.code = code
    }

    /// `KIND failed for URL: message`.
    public var description: String { "\(kind.rawValue) failed for \(url): \(message)" }
}
