import Foundation
import MediaCore

/// One piece of FFmpeg work on a person's file, as the supervising process asks a child
/// (`marquee media-work`) to do it: the child runs `BundlePackager` and answers with
/// `MediaWorkEvent` lines.
public enum MediaWorkRequest: Codable, Sendable, Hashable {
    case probe(source: String)
    case package(source: String, probe: MediaProbe, bundle: String)
    case decorate(bundle: String, duration: Double, artwork: String?)

    /// The file or folder the work reads, for errors and logs.
    public var subject: String {
        switch self {
        case .probe(let source), .package(let source, _, _): source
        case .decorate(let bundle, _, _): bundle
        }
    }

    /// The verb a failure names ("read", "package"), as `BundlePackager` names its steps.
    public var step: String {
        switch self {
        case .probe: "read"
        case .package: "package"
        case .decorate: "make thumbnails of"
        }
    }
}

/// What the child prints on standard output, one JSON object per line: progress (the named
/// phase and how far) while it works, then exactly one outcome.
public enum MediaWorkEvent: Codable, Sendable, Hashable {
    case progress(PackagingProgress)
    case probed(MediaProbe)
    case packaged(PackagedBundle)
    case failed(MediaWorkFailure)

    /// One line of the child's output.
    public func line() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }
}

/// A `LibraryError` carried across the process boundary, so the supervisor classifies a
/// child's failure (`IngestFailure`) exactly as it would classify the same failure in process.
public struct MediaWorkFailure: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable {
        case media, unsupportedSource, sourceNotFound, unsafeBundle, toolFailed, invalidRequest, cancelled, other
    }

    public var kind: Kind
    public var step: String?
    public var path: String?
    /// `MediaError.Kind`'s raw value for `.media`.
    public var mediaKind: String?
    public var message: String
    public var code: Int32?

    public init(_ error: any Error) {
        switch error {
        case LibraryError.mediaFailed(let step, let path, let cause):
            self.init(kind: .media, step: step, path: path, mediaKind: cause.kind.rawValue, message: cause.message, code: cause.code)
        case LibraryError.unsupportedSource(let path):
            self.init(kind: .unsupportedSource, path: path, message: "")
        case LibraryError.sourceNotFound(let path):
            self.init(kind: .sourceNotFound, path: path, message: "")
        case LibraryError.unsafeBundle(let path, let reason):
            self.init(kind: .unsafeBundle, path: path, message: reason)
        case LibraryError.toolFailed(let tool, let status, let message):
            self.init(kind: .toolFailed, step: tool, message: message, code: status)
        case LibraryError.invalidRequest(let reason):
            self.init(kind: .invalidRequest, message: reason)
        case is CancellationError:
            self.init(kind: .cancelled, message: "cancelled")
        case let error as MediaError:
            self.init(kind: .media, step: "process", path: error.url, mediaKind: error.kind.rawValue, message: error.message, code: error.code)
        default:
            self.init(kind: .other, message: String(describing: error))
        }
    }

    init(kind: Kind, step: String? = nil, path: String? = nil, mediaKind: String? = nil, message: String, code: Int32? = nil) {
        self.kind = kind
        self.step = step
        self.path = path
        self.mediaKind = mediaKind
        self.message = message
        self.code = code
    }

    /// The error as the supervisor throws it.
    public var error: any Error {
        switch kind {
        case .media:
            let cause = MediaError(MediaError.Kind(rawValue: mediaKind ?? "") ?? .read, url: path ?? "", message: message, code: code)
            return LibraryError.mediaFailed(step: step ?? "read", path: path ?? "", cause: cause)
        case .unsupportedSource: return LibraryError.unsupportedSource(path ?? "")
        case .sourceNotFound: return LibraryError.sourceNotFound(path ?? "")
        case .unsafeBundle: return LibraryError.unsafeBundle(path ?? "", reason: message)
        case .toolFailed: return LibraryError.toolFailed(tool: step ?? "tool", status: code ?? -1, message: message)
        case .invalidRequest: return LibraryError.invalidRequest(message)
        case .cancelled: return CancellationError()
        case .other: return MediaWorkOtherFailure(message: message)
        }
    }
}

/// A child's failure that was not a library error (the file system, say): kept as its text.
public struct MediaWorkOtherFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension MediaWorkRequest {
    /// Carries the request out in this process with `packager`, writing events with `emit`.
    /// This is the child's side: `marquee media-work` calls it.
    public func perform(with packager: BundlePackager, emit: @escaping @Sendable (MediaWorkEvent) -> Void) async -> MediaWorkEvent {
        do {
            switch self {
            case .probe(let source):
                return .probed(try await packager.probe(URL(fileURLWithPath: source)))
            case .package(let source, let probe, let bundle):
                let packaged = try await packager.package(URL(fileURLWithPath: source), probe: probe, into: URL(fileURLWithPath: bundle)) {
                    emit(.progress($0))
                }
                return .packaged(packaged)
            case .decorate(let bundle, let duration, let artwork):
                return .packaged(try await packager.decorate(bundle: URL(fileURLWithPath: bundle), duration: duration, artwork: artwork))
            }
        } catch {
            return .failed(MediaWorkFailure(error))
        }
    }
}
