/// One preference for choosing a variant, modelled on `AVAssetVariantQualifier`: a
/// predicate, one explicit variant, or the variant with the minimum or maximum value of a
/// numeric key path. A `ContentConfiguration` lists qualifiers in order of preference;
/// `VariantSelection.choose` applies them.
public struct VariantQualifier: Sendable, Hashable, CustomStringConvertible {
    public enum Extremum: String, Sendable, Hashable { case minimum, maximum }

    public enum Kind: Sendable, Hashable {
        /// Variants satisfying the predicate.
        case predicate(VariantPredicate)
        /// This variant stream, taken as is.
        case variant(VariantStream)
        /// Variants whose URI (as written, or resolved) is this one.
        case uri(String)
        /// Among the variants satisfying the predicate, those with the smallest or largest
        /// value at the key path; variants without a value are left out.
        case extremum(Extremum, VariantKeyPath, among: VariantPredicate)
    }

    public var kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    /// Variants satisfying `predicate` (`AVAssetVariantQualifier(predicate:)`).
    public init(predicate: VariantPredicate) { kind = .predicate(predicate) }

    /// Variants satisfying the format string; throws what `VariantPredicate(format:)` throws.
    public init(format: String) throws(PredicateFormatError) { kind = .predicate(try VariantPredicate(format: format)) }

    /// Exactly this variant (`AVAssetVariantQualifier(variant:)`): chosen as is when the
    /// playlist has it (see `identifies`), with no further ranking; matches nothing otherwise.
    public init(variant: Variant) { kind = .variant(variant.stream) }

    /// The variant(s) with this URI, as written in the playlist or resolved.
    public static func variant(uri: String) -> VariantQualifier { .init(.uri(uri)) }

    /// The variant with the smallest value at a numeric key path (`assetVariantQualifier(forMinimumValueInKeyPath:)`).
    public static func minimumValue(of key: VariantKeyPath, among predicate: VariantPredicate = .always) -> VariantQualifier {
        .init(.extremum(.minimum, key, among: predicate))
    }

    /// The variant with the largest value at a numeric key path.
    public static func maximumValue(of key: VariantKeyPath, among predicate: VariantPredicate = .always) -> VariantQualifier {
        .init(.extremum(.maximum, key, among: predicate))
    }

    /// `minimumValue(of:)` by name; throws for an unknown or non-numeric, multi-valued key path.
    public static func minimumValue(forKeyPath name: String, among predicate: VariantPredicate = .always) throws(PredicateFormatError) -> VariantQualifier {
        .minimumValue(of: try numericKeyPath(name), among: predicate)
    }

    /// `maximumValue(of:)` by name; throws for an unknown or non-numeric, multi-valued key path.
    public static func maximumValue(forKeyPath name: String, among predicate: VariantPredicate = .always) throws(PredicateFormatError) -> VariantQualifier {
        .maximumValue(of: try numericKeyPath(name), among: predicate)
    }

    static func numericKeyPath(_ name: String) throws(PredicateFormatError) -> VariantKeyPath {
        let key = try VariantKeyPath.resolve(name, column: 1)
        guard key.valueType == .number, !key.isCollection else {
            throw PredicateFormatError(
                .typeMismatch, column: 1,
                "\(key.name) is \(key.isCollection ? "a collection" : "a \(key.valueType.rawValue)"); expected a single-valued numeric key path")
        }
        return key
    }

    /// The indices of the variants this qualifier matches, each with the audio renditions
    /// that satisfied per-rendition conditions.
    func matches(_ variants: [Variant]) -> [(index: Int, renditions: Set<Int>)] {
        switch kind {
        case .predicate(let p):
            return variants.indices.compactMap { i in p.evaluateRenditions(variants[i]).map { (i, $0) } }
        case .variant(let stream):
            return variants.firstIndex { Self.identifies(stream, $0.stream) }.map { [($0, Set<Int>())] } ?? []
        case .uri(let uri):
            return variants.indices.filter { variants[$0].uri == uri || variants[$0].stream.uri == uri }.map { ($0, Set<Int>()) }
        case .extremum(let extremum, let key, let among):
            let candidates = variants.indices.compactMap { i -> (Int, Double, Set<Int>)? in
                guard let r = among.evaluateRenditions(variants[i]), let value = key.number(in: variants[i]) else { return nil }
                return (i, value, r)
            }
            let values = candidates.map(\.1)
            guard let target = extremum == .minimum ? values.min() : values.max() else { return [] }
            return candidates.filter { $0.1 == target }.map { ($0.0, $0.2) }
        }
    }

    /// True when `a` and `b` are the same variant of a playlist, also after the playlist was
    /// fetched again or the qualifier stored and read back: the same URI, BANDWIDTH,
    /// rendition groups, PATHWAY-ID and STABLE-VARIANT-ID.
    static func identifies(_ a: VariantStream, _ b: VariantStream) -> Bool {
        a.uri == b.uri && a.attributes.bandwidth == b.attributes.bandwidth && a.audio == b.audio
            && a.subtitles == b.subtitles && a.attributes.video == b.attributes.video
            && a.attributes.pathwayID == b.attributes.pathwayID && a.attributes.stableVariantID == b.attributes.stableVariantID
    }

    public var description: String {
        switch kind {
        case .predicate(let p): p.description
        case .variant(let s): "variant \(s.uri)"
        case .uri(let u): "variant \(u)"
        case .extremum(let e, let k, let among):
            "\(e.rawValue) \(k.name)" + (among == .always ? "" : " among \(among)")
        }
    }
}
