/// Which renditions a rule or a media selection is about: by language, name, group and
/// characteristics; a nil or empty field matches anything, so `.any` matches every rendition.
/// Plays the part of `AVMediaSelectionOption` for qualifiers and content configurations.
///
/// Languages match by primary subtag, case-insensitively, and a two-letter code matches its
/// ISO 639-2 forms (`en` matches `en`, `en-US`, `eng`; `fr` matches `fre` and `fra`). A
/// rendition without LANGUAGE (such as audio muxed into the variant) matches no language.
public struct MediaSelectionOption: Sendable, Hashable, Codable, CustomStringConvertible {
    public var language: String?
    public var name: String?
    public var groupID: String?
    /// CHARACTERISTICS the rendition must all have (`public.accessibility.describes-video`, …).
    public var characteristics: [String]
    /// For subtitles: true only forced, false only not forced, nil either.
    public var forced: Bool?

    public init(
        language: String? = nil, name: String? = nil, groupID: String? = nil,
        characteristics: [String] = [], forced: Bool? = nil
    ) {
        self.language = language
        self.name = name
        self.groupID = groupID
        self.characteristics = characteristics
        self.forced = forced
    }

    public static let any = MediaSelectionOption()
    public static func language(_ language: String) -> MediaSelectionOption { .init(language: language) }
    public static func name(_ name: String) -> MediaSelectionOption { .init(name: name) }

    public var description: String {
        var parts: [String] = []
        if let language { parts.append("language=\(language)") }
        if let name { parts.append("name=\"\(name)\"") }
        if let groupID { parts.append("group=\(groupID)") }
        if !characteristics.isEmpty { parts.append("characteristics=\(characteristics.joined(separator: ","))") }
        if let forced { parts.append("forced=\(forced)") }
        return parts.isEmpty ? "any" : parts.joined(separator: " ")
    }

    public func matches(_ r: Variant.AudioRendition) -> Bool {
        matches(language: r.language, name: r.name, groupID: r.groupID, characteristics: r.characteristics, forced: nil)
    }

    public func matches(_ r: Variant.TextRendition) -> Bool {
        matches(language: r.language, name: r.name, groupID: r.groupID, characteristics: r.characteristics, forced: r.forced)
    }

    func matches(language l: String?, name n: String?, groupID g: String?, characteristics c: [String], forced f: Bool?) -> Bool {
        if let language, !Self.languagesMatch(language, l) { return false }
        if let name, n?.lowercased() != name.lowercased() { return false }
        if let groupID, g != groupID { return false }
        if !characteristics.allSatisfy({ c.contains($0) }) { return false }
        if let forced, let f, forced != f { return false }
        return true
    }

    /// True when the language tags name the same language (see the type's doc comment).
    static func languagesMatch(_ wanted: String, _ actual: String?) -> Bool {
        guard let actual else { return false }
        func primary(_ s: String) -> String {
            let p = s.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
            return alpha2[p] ?? p
        }
        return primary(wanted) == primary(actual)
    }

    /// ISO 639-2 (B and T) codes of common languages, to their ISO 639-1 code.
    static let alpha2: [String: String] = [
        "eng": "en", "fre": "fr", "fra": "fr", "spa": "es", "ger": "de", "deu": "de", "ita": "it", "jpn": "ja",
        "chi": "zh", "zho": "zh", "por": "pt", "rus": "ru", "kor": "ko", "dut": "nl", "nld": "nl", "ara": "ar",
        "hin": "hi", "swe": "sv", "nor": "no", "dan": "da", "fin": "fi", "pol": "pl", "tur": "tr", "gre": "el",
        "ell": "el", "heb": "he", "cze": "cs", "ces": "cs", "hun": "hu", "tha": "th", "vie": "vi", "ukr": "uk",
        "cat": "ca", "ind": "id", "may": "ms", "msa": "ms",
    ]
}

/// A rendition the user wants: audio or subtitles, and which ones. Plays the part of
/// `AVMediaSelection` in a `ContentConfiguration`.
public struct MediaSelection: Sendable, Hashable, Codable, CustomStringConvertible {
    public var mediaType: MediaType
    public var option: MediaSelectionOption

    public init(_ mediaType: MediaType, _ option: MediaSelectionOption) {
        self.mediaType = mediaType
        self.option = option
    }

    public static func audio(_ option: MediaSelectionOption) -> MediaSelection { .init(.audio, option) }
    public static func audio(language: String) -> MediaSelection { .init(.audio, .language(language)) }
    public static func subtitles(_ option: MediaSelectionOption) -> MediaSelection { .init(.subtitles, option) }
    public static func subtitles(language: String) -> MediaSelection { .init(.subtitles, .language(language)) }

    public var description: String { "\(mediaType.rawValue.lowercased()) \(option)" }
}
