import Foundation

/// Turns the ISO 639 codes containers carry (`eng`, `fre`, `fra`) into the two-letter tags
/// playlists and the player use (`en`, `fr`), and names a language in itself (`Français`).
enum LanguageTag {
    /// ISO 639-2 bibliographic codes, which Foundation does not know, to their terminology twins.
    static let terminologyCodes = [
        "alb": "sqi", "arm": "hye", "baq": "eus", "bur": "mya", "chi": "zho", "cze": "ces", "dut": "nld",
        "fre": "fra", "geo": "kat", "ger": "deu", "gre": "ell", "ice": "isl", "mac": "mkd", "mao": "mri",
        "may": "msa", "per": "fas", "rum": "ron", "slo": "slk", "tib": "bod", "wel": "cym",
    ]

    /// The two-letter code where ISO 639-1 has one, else the code as given (lowercased);
    /// `nil` for no language or `und`.
    static func twoLetter(_ code: String?) -> String? {
        guard let raw = code?.trimmingCharacters(in: .whitespaces).lowercased(), !raw.isEmpty, raw != "und" else { return nil }
        let language = Locale.LanguageCode(terminologyCodes[raw] ?? raw)
        guard language.isISOLanguage else { return raw }
        return language.identifier(.alpha2) ?? raw
    }

    /// The language's name in that language, capitalised (`English`, `Français`, `日本語`).
    static func name(of code: String?) -> String? {
        guard let code, let name = Locale(identifier: code).localizedString(forLanguageCode: code), !name.isEmpty else {
            return nil
        }
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}
