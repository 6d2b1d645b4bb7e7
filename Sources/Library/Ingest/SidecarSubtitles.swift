import Foundation

/// Subtitle files that sit next to a media file and belong to it by name: `Name.srt`,
/// `Name.en.srt`, `Name.pt-BR.vtt`, `Name.ja.forced.ass` (`.srt`, `.vtt`, `.ass`, `.ssa`).
enum SidecarSubtitles {
    static let extensions: Set<String> = ["srt", "vtt", "ass", "ssa"]
    /// The most sidecars taken for one media file.
    static let maximumFiles = 20

    /// One sidecar found: its file, the language its name gives (if any) and whether it is forced.
    struct Found: Equatable {
        var url: URL
        var language: String?
        var isForced: Bool
    }

    /// The sidecars of `media` in its folder, by name. Blocking (lists a folder).
    static func find(nextTo media: URL) -> [Found] {
        let folder = media.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        let base = media.deletingPathExtension().lastPathComponent
        return names.sorted().compactMap { name in
            match(name, base: base).map { Found(url: folder.appendingPathComponent(name), language: $0.0, isForced: $0.1) }
        }
        .filter { SourceFileKind.of($0.url) == .regularFile }
        .prefix(maximumFiles).map { $0 }
    }

    /// Whether the file `name` is a sidecar of a media file named `base` (without extension):
    /// its language (a tag, or nil) and whether it is marked forced; `nil` when it is not one.
    static func match(_ name: String, base: String) -> (String?, Bool)? {
        let fileExtension = (name as NSString).pathExtension.lowercased()
        guard extensions.contains(fileExtension), name.hasPrefix(base) else { return nil }
        let middle = String(name.dropFirst(base.count).dropLast(fileExtension.count + 1))
        if middle.isEmpty { return (nil, false) }
        guard middle.hasPrefix(".") else { return nil }
        var parts = middle.dropFirst().split(separator: ".").map(String.init)
        var forced = false
        if let last = parts.last, ["forced", "sdh", "cc"].contains(last.lowercased()) {
            forced = last.lowercased() == "forced"
            parts.removeLast()
        }
        if parts.isEmpty { return (nil, forced) }
        guard parts.count == 1, let language = try? SubtitleLanguage.normalized(parts[0]) else { return nil }
        return (language, forced)
    }
}
