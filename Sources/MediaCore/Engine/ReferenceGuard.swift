import CFFmpeg
import Foundation

/// Decides which other resources libavformat may open on behalf of a local file: an HLS
/// playlist names its segments, a concat list its parts, a reference movie its data. A file
/// handed to Marquee must not become a way to read other files on the machine (or to make
/// it fetch URLs), so every open goes through this guard: the file itself, and — when its
/// `AssetSource` allows references — only files inside the folder that holds it (an HLS
/// bundle's own playlists and segments). Anything else is refused and remembered, so the
/// error can name it.
final class ReferenceGuard: @unchecked Sendable {
    typealias OpenFunction =
        @convention(c) (
            UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
            UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?
        ) -> Int32

    /// The file opened first, as libavformat is given it.
    let rootPath: String
    /// The folder (with a trailing slash) references must stay in; nil when none are allowed.
    let allowedFolder: String?
    let original: OpenFunction
    // Only touched on the pool thread that owns the FormatInput.
    private(set) var refused: String?

    init(rootPath: String, allowsReferencesInFolder: Bool, original: OpenFunction) {
        let root = URL(fileURLWithPath: rootPath).standardizedFileURL.resolvingSymlinksInPath()
        self.rootPath = root.path
        allowedFolder = allowsReferencesInFolder ? root.deletingLastPathComponent().path + "/" : nil
        self.original = original
    }

    /// Whether libavformat may open `url` (a `file:` URL or a plain path; nothing else).
    func permits(_ url: String) -> Bool {
        var path = url
        if path.hasPrefix("file://") {
            path.removeFirst("file://".count)
        } else if path.hasPrefix("file:") {
            path.removeFirst("file:".count)
        } else if path.contains("://") || path.contains(":") && !path.hasPrefix("/") {
            return false  // another protocol: http, tcp, data, concat, subfile, crypto…
        }
        guard path.hasPrefix("/") else { return false }
        let resolved = URL(fileURLWithPath: path.removingPercentEncoding ?? path).standardizedFileURL.resolvingSymlinksInPath().path
        if resolved == rootPath { return true }
        guard let allowedFolder else { return false }
        return resolved.hasPrefix(allowedFolder)
    }

    /// Installs the guard on a format context before `avformat_open_input`.
    static func install(
        on context: UnsafeMutablePointer<AVFormatContext>, rootPath: String,
        allowsReferencesInFolder: Bool
    ) -> ReferenceGuard? {
        guard let original = context.pointee.io_open else { return nil }
        let guardian = ReferenceGuard(rootPath: rootPath, allowsReferencesInFolder: allowsReferencesInFolder, original: original)
        context.pointee.opaque = Unmanaged.passUnretained(guardian).toOpaque()
        context.pointee.io_open = { context, pb, url, flags, options in
            guard let context, let opaque = context.pointee.opaque else { return -EPERM }
            let guardian = Unmanaged<ReferenceGuard>.fromOpaque(opaque).takeUnretainedValue()
            let text = url.map { String(cString: $0) } ?? ""
            guard guardian.permits(text) else {
                guardian.refused = text
                return -EPERM
            }
            return guardian.original(context, pb, url, flags, options)
        }
        return guardian
    }
}
