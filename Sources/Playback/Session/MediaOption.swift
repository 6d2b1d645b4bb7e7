/// An audio or subtitle rendition a viewer can choose, as in `AVMediaSelectionOption`.
public struct MediaOption: Sendable, Hashable, Codable, Identifiable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case audio
        case subtitles
    }

    public var id: String
    public var kind: Kind
    public var name: String
    /// BCP 47 language tag, e.g. "en" or "fr".
    public var language: String?
    public var isDefault: Bool

    public init(id: String, kind: Kind, name: String, language: String? = nil, isDefault: Bool = false) {
        self.id = id
        self.kind = kind
        self.name = name
        self.language = language
        self.isDefault = isDefault
    }
}
