import Foundation

/// Badges for the library page from a packaged multivariant playlist: "4K"/"HD", "HDR",
/// "Multichannel", "CC", "Multilingual".
///
/// A deliberately small reading of `EXT-X-STREAM-INF`/`EXT-X-MEDIA` attributes; it gives way
/// to the `HLS` module's variant inspection once that is merged.
enum BadgeInspector {
    struct VariantLine {
        var width: Int?
        var height: Int?
        var videoRange: String?
        var uri: String?
    }

    static func badges(forMultivariantAt url: URL) throws -> [String] {
        badges(multivariant: try String(contentsOf: url, encoding: .utf8))
    }

    static func badges(multivariant text: String) -> [String] {
        var badges: [String] = []
        let variants = variants(in: text)
        let tallest = variants.compactMap { variant in variant.width.flatMap { w in variant.height.map { min(w, $0) } } }.max() ?? 0
        if tallest >= 2160 { badges.append("4K") } else if tallest >= 720 { badges.append("HD") }
        if variants.contains(where: { $0.videoRange == "PQ" || $0.videoRange == "HLG" }) { badges.append("HDR") }
        let media = text.components(separatedBy: .newlines).filter { $0.hasPrefix("#EXT-X-MEDIA:") }
        if media.contains(where: { $0.contains("TYPE=AUDIO") && (attribute("CHANNELS", in: $0).flatMap { Int($0.prefix { $0.isNumber }) } ?? 2) > 2 }) {
            badges.append("Multichannel")
        }
        if media.contains(where: { $0.contains("TYPE=SUBTITLES") || $0.contains("TYPE=CLOSED-CAPTIONS") }) { badges.append("CC") }
        let languages = Set(media.filter { $0.contains("TYPE=AUDIO") }.compactMap { attribute("LANGUAGE", in: $0) })
        if languages.count > 1 { badges.append("Multilingual") }
        return badges
    }

    static func variants(in text: String) -> [VariantLine] {
        let lines = text.components(separatedBy: .newlines)
        var result: [VariantLine] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("#EXT-X-STREAM-INF:") {
            var variant = VariantLine()
            if let resolution = attribute("RESOLUTION", in: line) {
                let parts = resolution.split(separator: "x").compactMap { Int($0) }
                if parts.count == 2 { variant.width = parts[0]; variant.height = parts[1] }
            }
            variant.videoRange = attribute("VIDEO-RANGE", in: line)
            variant.uri = lines[(index + 1)...].first { !$0.isEmpty && !$0.hasPrefix("#") }
            result.append(variant)
        }
        return result
    }

    static func attribute(_ name: String, in line: String) -> String? {
        guard let range = line.range(of: "\(name)=") else { return nil }
        let rest = line[range.upperBound...]
        if rest.first == "\"" {
            return String(rest.dropFirst().prefix { $0 != "\"" })
        }
        return String(rest.prefix { $0 != "," })
    }
}
