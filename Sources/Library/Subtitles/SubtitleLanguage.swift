import Foundation

/// Language tags and labels of added subtitle files, checked and tidied.
public enum SubtitleLanguage {
    /// A BCP 47-like tag in its usual case (`en`, `ja`, `pt-BR`, `zh-Hant`), three-letter
    /// ISO 639-2 codes shortened where ISO 639-1 has one (`jpn` → `ja`); `nil` for none
    /// (empty or `und`). Throws for anything else.
    ///
    /// The rule is `pattern` and `maximumTagLength`, as `openapi.json` states them (no spaces:
    /// the page trims what a person typed).
    public static func normalized(_ given: String?) throws(SubtitleFileError) -> String? {
        guard let raw = given, !raw.isEmpty, raw.lowercased() != "und" else { return nil }
        let parts = raw.replacingOccurrences(of: "_", with: "-").split(separator: "-", omittingEmptySubsequences: false)
        guard raw.count <= maximumTagLength, let primary = parts.first, (2...3).contains(primary.count),
            primary.allSatisfy({ $0.isASCII && $0.isLetter }),
            parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { throw .invalidLanguage(raw) }
        var tag = [LanguageTag.twoLetter(String(primary)) ?? primary.lowercased()]
        for part in parts.dropFirst() {
            if part.count == 2, part.allSatisfy(\.isLetter) {
                tag.append(part.uppercased())
            } else if part.count == 4, part.allSatisfy(\.isLetter) {
                tag.append(part.prefix(1).uppercased() + part.dropFirst().lowercased())
            } else {
                tag.append(part.lowercased())
            }
        }
        return tag.joined(separator: "-")
    }

    /// A language tag the server takes, as `openapi.json` states it (empty: none).
    public static let pattern = "^([A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*)?$"
    /// The longest language tag taken, in characters.
    public static let maximumTagLength = 35

    /// The longest label accepted, in characters.
    public static let maximumLabelLength = 80

    /// The label a rendition is named with: the one given (control characters and double
    /// quotes, which a playlist's `NAME` cannot hold, replaced), else the language's own name,
    /// else "Subtitles".
    public static func label(_ given: String?, language: String?) throws(SubtitleFileError) -> String {
        let cleaned = (given ?? "").map { $0 == "\"" ? "'" : $0.isNewline || ($0.unicodeScalars.first?.properties.generalCategory == .control) ? " " : $0 }
        let label = String(cleaned).trimmingCharacters(in: .whitespaces)
        guard label.count <= maximumLabelLength else {
            throw .invalidLabel("The label is \(label.count) characters long; at most \(maximumLabelLength) are accepted")
        }
        if !label.isEmpty { return label }
        return LanguageTag.name(of: language?.split(separator: "-").first.map(String.init)) ?? "Subtitles"
    }
}
