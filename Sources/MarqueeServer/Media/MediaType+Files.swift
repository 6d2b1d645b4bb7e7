/// The content type and caching policy of a file Marquee serves, by extension.
///
/// Segments, init sections, subtitles and images never change once packaged, so they are
/// immutable for a year; playlists and manifests are short-lived.
struct ServedFileKind: Sendable, Hashable {
    let contentType: String
    let cacheControl: String

    static let immutable = "public, max-age=31536000, immutable"
    static let shortLived = "public, max-age=2, must-revalidate"

    static func forExtension(_ fileExtension: String) -> ServedFileKind {
        switch fileExtension.lowercased() {
        case "m3u8": ServedFileKind(contentType: "application/vnd.apple.mpegurl", cacheControl: shortLived)
        case "m4s": ServedFileKind(contentType: "video/iso.segment", cacheControl: immutable)
        case "mp4", "m4v": ServedFileKind(contentType: "video/mp4", cacheControl: immutable)
        case "m4a": ServedFileKind(contentType: "audio/mp4", cacheControl: immutable)
        case "ts": ServedFileKind(contentType: "video/mp2t", cacheControl: immutable)
        case "aac": ServedFileKind(contentType: "audio/aac", cacheControl: immutable)
        case "vtt", "webvtt": ServedFileKind(contentType: "text/vtt; charset=utf-8", cacheControl: immutable)
        case "jpg", "jpeg": ServedFileKind(contentType: "image/jpeg", cacheControl: immutable)
        case "png": ServedFileKind(contentType: "image/png", cacheControl: immutable)
        case "json": ServedFileKind(contentType: "application/json", cacheControl: shortLived)
        default: ServedFileKind(contentType: "application/octet-stream", cacheControl: shortLived)
        }
    }
}
