import Foundation
import MediaCore

/// Turns a command-line source (a path or an http(s) URL) into an `Asset`.
enum MediaSourceArgument {
    static func asset(_ source: String) -> Asset {
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(),
            ["http", "https", "file"].contains(scheme)
        {
            return Asset(url: url)
        }
        return Asset(path: source)
    }
}
