/// A key path inside `SUBQUERY(audioAttributes.renditions, $r, …)`: a property of one audio
/// rendition, written `$r.channelCount`, `$r.language`, …
public enum AudioRenditionKeyPath: String, CaseIterable, Sendable, Hashable, Codable, PredicateKey {
    case name, language, groupID, uri, channelCount, sampleRate, isImmersive, isBinaural, isDownmix, isDefault
    case characteristics

    public var name: String { rawValue }

    public var valueType: VariantKeyPath.ValueType {
        switch self {
        case .name, .language, .groupID, .uri, .characteristics: .string
        case .channelCount, .sampleRate: .number
        case .isImmersive, .isBinaural, .isDownmix, .isDefault: .boolean
        }
    }

    public var isCollection: Bool { self == .characteristics }
    public var allowedValues: [String]? { nil }
    var isLanguage: Bool { self == .language }

    func values(in r: Variant.AudioRendition) -> [PredicateScalar?] {
        func number(_ x: Int?) -> [PredicateScalar?] { x.map { [.number(Double($0))] } ?? [] }
        func string(_ x: String?) -> [PredicateScalar?] { x.map { [.string($0)] } ?? [] }
        switch self {
        case .name: return string(r.name)
        case .language: return string(r.language)
        case .groupID: return string(r.groupID)
        case .uri: return string(r.uri)
        case .channelCount: return number(r.channelCount)
        case .sampleRate: return number(r.sampleRate)
        case .isImmersive: return [.bool(r.isImmersive)]
        case .isBinaural: return [.bool(r.isBinaural)]
        case .isDownmix: return [.bool(r.isDownmix)]
        case .isDefault: return [.bool(r.isDefault)]
        case .characteristics: return r.characteristics.map { .string($0) }
        }
    }

    static func resolve(_ name: String, variable: String, column: Int) throws(PredicateFormatError) -> AudioRenditionKeyPath {
        if let k = AudioRenditionKeyPath(rawValue: name) { return k }
        let suggestion = allCases.first { $0.rawValue.lowercased() == name.lowercased() }
        let hint = suggestion.map { "did you mean $\(variable).\($0.rawValue)? " } ?? ""
        throw PredicateFormatError(
            .unknownKeyPath, column: column,
            "unknown audio rendition key path '$\(variable).\(name)'; \(hint)expected one of \(allCases.map { "$\(variable).\($0.rawValue)" }.joined(separator: ", "))"
        )
    }
}

/// What the type checker needs to know of a key path, in either scope.
protocol PredicateKey: Sendable {
    var name: String { get }
    var valueType: VariantKeyPath.ValueType { get }
    var isCollection: Bool { get }
    var allowedValues: [String]? { get }
    /// Compared as a language tag (`en` equals `eng` and `en-US`) by `==`, `!=` and `IN`.
    var isLanguage: Bool { get }
}
