public import Foundation

/// Where an asset's bytes come from: a URL libavformat opens itself (file, HTTP(S), an HLS
/// playlist), a local file read on its own, or a custom `ResourceLoader`.
///
/// A local file given as `.url` may refer to files in its own folder (an HLS bundle's
/// playlists and segments) and nothing else; `.isolatedFile` may refer to nothing at all, so
/// a playlist posing as a media file cannot make FFmpeg read other files.
public enum AssetSource: Sendable {
    case url(URL)
    case isolatedFile(URL)
    case loader(any ResourceLoader)

    /// The local path libavformat opens and whether it may open files beside it.
    var localFile: (path: String, allowsReferences: Bool)? {
        switch self {
        case .url(let url): url.isFileURL ? (url.path, true) : nil
        case .isolatedFile(let url): (url.path, false)
        case .loader: nil
        }
    }

    /// The string used in errors: the path of a file URL, the URL otherwise.
    public var displayName: String {
        switch self {
        case .url(let url): url.isFileURL ? url.path : url.absoluteString
        case .isolatedFile(let url): url.path
        case .loader(let loader): loader.resourceDescription
        }
    }

    /// The string handed to libavformat.
    var openString: String? {
        switch self {
        case .url(let url): url.isFileURL ? "file:" + url.path : url.absoluteString
        case .isolatedFile(let url): "file:" + url.path
        case .loader: nil
        }
    }
}
