import Foundation

/// Content types of the web player's own files; revalidated on every load (no build step,
/// so no hashed names to make them immutable).
enum WebResourceKind {
    static func forExtension(_ fileExtension: String) -> ServedFileKind {
        let type =
            switch fileExtension.lowercased() {
            case "html": "text/html; charset=utf-8"
            case "js", "mjs": "text/javascript; charset=utf-8"
            case "css": "text/css; charset=utf-8"
            case "svg": "image/svg+xml"
            case "json": "application/json"
            case "png": "image/png"
            case "webmanifest": "application/manifest+json"
            default: "application/octet-stream"
            }
        return ServedFileKind(contentType: type, cacheControl: "no-cache")
    }
}
