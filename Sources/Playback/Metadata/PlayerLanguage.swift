/// The language a player's interface speaks: English or Japanese.
///
/// Chosen from the browser's preferred languages (an `Accept-Language` header or
/// `navigator.languages`); anything that is not Japanese falls back to English.
public enum PlayerLanguage: String, Sendable, Hashable, Codable, CaseIterable {
    case english = "en"
    case japanese = "ja"

    /// Picks the first supported language from a list of BCP 47 tags in preference order.
    public init(preferred tags: [String]) {
        for tag in tags {
            let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
            if let language = PlayerLanguage(rawValue: primary) {
                self = language
                return
            }
        }
        self = .english
    }

    /// Picks a language from an HTTP `Accept-Language` value, honouring its q-values.
    public init(acceptLanguage header: String) {
        let ranked = header.split(separator: ",").enumerated().compactMap { index, part -> (tag: String, q: Double, index: Int)? in
            let fields = part.split(separator: ";").map(trimmed)
            guard let tag = fields.first, !tag.isEmpty else { return nil }
            var q = 1.0
            for field in fields.dropFirst() where field.hasPrefix("q=") {
                q = Double(field.dropFirst(2)) ?? 0
            }
            return (tag, q, index)
        }
        .filter { $0.q > 0 }
        .sorted { $0.q != $1.q ? $0.q > $1.q : $0.index < $1.index }
        self.init(preferred: ranked.map(\.tag))
    }
}

private func trimmed(_ text: Substring) -> String {
    String(text.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
}
