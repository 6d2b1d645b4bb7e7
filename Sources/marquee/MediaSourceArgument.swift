import Foundation
import MediaCore

/// Turns a command-line source (a path or an http(s) URL) into an `MediaAsset`.
enum MediaSourceArgument {
    static func asset(_ source: String) -> MediaAsset {
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(),
            ["http", "https", "file"].contains(scheme)
        {
            return MediaAsset(url: url)
        }
        return MediaAsset(path: source)
    }
}
