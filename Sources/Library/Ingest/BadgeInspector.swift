import Foundation
import HLS

/// Badges for the library page from a packaged multivariant playlist, by the `HLS` module's
/// variant inspection ("4K", "HD", "HDR", "Dolby Vision", "5.1"…), plus "CC" when a variant
/// carries subtitles or captions and "Multilingual" when audio comes in several languages.
enum BadgeInspector {
    static func badges(forMultivariantAt url: URL) throws -> [String] {
        badges(multivariant: try String(contentsOf: url, encoding: .utf8))
    }

    static func badges(multivariant text: String) -> [String] {
        guard let playlist = PlaylistParser.parse(text).playlist?.multivariant else { return [] }
        let variants = playlist.inspectedVariants()
        var badges = playlist.badges().map(\.rawValue)
        if variants.contains(where: { !$0.subtitleRenditions.isEmpty || !$0.closedCaptionRenditions.isEmpty }) {
            badges.append("CC")
        }
        let languages = Set(variants.flatMap { $0.audioAttributes?.renditions ?? [] }.compactMap(\.language))
        if languages.count > 1 { badges.append("Multilingual") }
        return badges
    }
}
