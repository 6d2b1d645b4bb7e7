import Foundation

/// Where an asset's bytes come from: a URL libavformat opens itself (file, HTTP(S), an HLS
/// playlist) or a custom `ResourceLoader`.
public enum AssetSource: Sendable {
    case url(URL)
    case loader(any ResourceLoader)

    /// The string used in errors: the path of a file URL, the URL otherwise.
    public var displayName: String {
        switch self {
        case .url(let url): url.isFileURL ? url.path : url.absoluteString
        case .loader(let loader): loader.resourceDescription
        }
    }

    /// The string handed to libavformat.
    var openString: String? {
        switch self {
        case .url(let url): url.isFileURL ? "file:" + url.path : url.absoluteString
        case .loader: nil
        }
    }
}
