public import MediaCore

/// What went wrong in the library, with enough context to show a person.
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    case assetNotFound(String)
    case jobNotFound(Int64)
    case sourceNotFound(String)
    case unsupportedSource(String)
    /// A folder to add holds more entries (files and folders, at any depth) than `limit`: `/`,
    /// say. The walk stops there instead of reading the whole disk.
    case folderTooLarge(String, limit: Int)
    /// An HLS bundle that names files outside itself, links, or files that are missing.
    case unsafeBundle(String, reason: String)
    case jobNotRetryable(Int64, state: String)
    case invalidSettings(String)
    /// A request the library cannot take as given (an empty or relative path, a search too long).
    case invalidRequest(String)
    /// A tool the library runs (the sample generator's `ffmpeg`) failed; carries its own message.
    case toolFailed(tool: String, status: Int32, message: String)
    /// MediaCore could not `step` ("read", "package") the media at `path`; keeps MediaCore's
    /// error as the cause (its kind, the URL, FFmpeg's message and error code).
    case mediaFailed(step: String, path: String, cause: MediaError)

    public var description: String {
        switch self {
        case .assetNotFound(let id): "No asset with id \(id)"
        case .jobNotFound(let id): "No job with id \(id)"
        case .sourceNotFound(let path): "No file or folder at \(path)"
        case .unsupportedSource(let path): "Not a media file, folder or HLS bundle: \(path)"
        case .folderTooLarge(let path, let limit): "The folder \(path) holds more than \(limit) files and folders; add a folder inside it"
        case .unsafeBundle(let path, let reason): "Cannot import the HLS bundle \(path): \(reason)"
        case .jobNotRetryable(let id, let state): "Job \(id) is \(state); only failed jobs can be retried"
        case .invalidSettings(let reason): "Invalid player settings: \(reason)"
        case .invalidRequest(let reason): reason
        case .toolFailed(let tool, let status, let message): "\(tool) exited with status \(status): \(message)"
        case .mediaFailed(let step, let path, let cause): "Could not \(step) \(path): \(cause.message)"
        }
    }
}
