/// A condition on an inspected `Variant`, in the spirit of the `NSPredicate` that an
/// `AVAssetVariantQualifier` wraps. Written as a format string —
/// `peakBitRate < 5000000 AND videoAttributes.videoRange == "PQ"` — parsed and type-checked
/// once by `init(format:)`, or built with the constructors for what a format string says
/// badly (per-rendition audio, presentation size); predicates combine with `&&`, `||`, `!`.
///
/// The language (see `PredicateParser` for the grammar): key paths from `VariantKeyPath`;
/// `==` `!=` `<` `<=` `>` `>=`; `IN {…}`; `BETWEEN {low, high}`; `CONTAINS` (substring of a
/// string, or element of a collection); `BEGINSWITH`, `ENDSWITH`, `LIKE` (`*`, `?`), with
/// `[c]` / `[d]` options; `ANY` / `ALL` / `NONE` before collection key paths; `AND` `OR`
/// `NOT` (`&&` `||` `!`); `collection.@count` (also `audioAttributes.renditions.@count`,
/// `subtitleRenditions.@count`); parentheses; 'single' or "double" quoted strings, numbers,
/// `TRUE`/`FALSE`/`YES`/`NO`, `nil`. A missing value (no AVERAGE-BANDWIDTH, an audio-only
/// variant's width) makes every comparison false except `== nil`; `ALL` over an empty
/// collection is false, `NONE` is true. Language key paths compare as language tags (`en`
/// equals `eng` and `en-US`). Conditions that one audio rendition must meet together use
/// NSPredicate's `SUBQUERY`:
/// `SUBQUERY(audioAttributes.renditions, $r, $r.language == "en" AND $r.channelCount <= 6).@count > 0`
/// (rendition key paths: `AudioRenditionKeyPath`).
public struct VariantPredicate: Sendable, Hashable, CustomStringConvertible {
    let node: PredicateNode

    init(node: PredicateNode) { self.node = node }

    /// Parses and type-checks `format`; throws a `PredicateFormatError` with the column of the
    /// unknown key path, type mismatch, bad operator or unterminated string.
    public init(format: String) throws(PredicateFormatError) {
        node = try PredicateCompiler.compile(try PredicateParser.parse(format))
    }

    /// True when `variant` satisfies the predicate.
    public func evaluate(_ variant: Variant) -> Bool { node.evaluate(variant) != nil }

    /// The audio renditions of `variant` that satisfied the per-rendition parts of the
    /// predicate (`SUBQUERY(audioAttributes.renditions, …)`, the `audioRendition`
    /// constructors, `ANY`/`ALL` over `audioAttributes.renditions.…`), in rendition order;
    /// nil when the predicate is false.
    /// Empty when it holds without a per-rendition part.
    public func matchingAudioRenditions(in variant: Variant) -> [Variant.AudioRendition]? {
        guard let hits = node.evaluate(variant) else { return nil }
        let renditions = variant.audioAttributes?.renditions ?? []
        return hits.sorted().map { renditions[$0] }
    }

    func evaluateRenditions(_ variant: Variant) -> Set<Int>? { node.evaluate(variant) }

    public static let always = VariantPredicate(node: .constant(true))
    public static let never = VariantPredicate(node: .constant(false))

    public static func && (a: Self, b: Self) -> Self { .init(node: .and(a.node, b.node)) }
    public static func || (a: Self, b: Self) -> Self { .init(node: .or(a.node, b.node)) }
    public static prefix func ! (a: Self) -> Self { .init(node: .not(a.node)) }

    // MARK: Constructors (AVAssetVariantQualifier.predicate(for…))

    /// Some audio rendition matching `option` satisfies every condition (all on that same
    /// rendition). Other renditions of the variant do not count against it: a variant whose
    /// group has stereo and Atmos English renditions satisfies
    /// `audioRendition(.language("en"), where: [.channelCount(.lessThanOrEqual, 6)])`.
    public static func audioRendition(
        _ option: MediaSelectionOption = .any,
        where conditions: [AudioRenditionCondition]
    ) -> Self {
        let parts: [RenditionPredicateNode] = (option == .any ? [] : [.option(option)]) + conditions.map { .condition($0) }
        let body = parts.dropFirst().reduce(parts.first ?? .constant(true)) { .and($0, $1) }
        return .init(node: .renditions(body, .greaterThan, 0))
    }

    /// The rendition matching `option` has a channel count (`CHANNELS`) satisfying `op count`.
    public static func channelCount(_ op: ComparisonOperator, _ count: Int, for option: MediaSelectionOption = .any) -> Self {
        audioRendition(option, where: [.channelCount(op, count)])
    }

    /// The rendition matching `option` is (or is not) binaural.
    public static func binauralAudio(_ isBinaural: Bool = true, for option: MediaSelectionOption = .any) -> Self {
        audioRendition(option, where: [.binaural(isBinaural)])
    }

    /// The rendition matching `option` is (or is not) immersive (Atmos JOC, ambisonics, IMMERSIVE).
    public static func immersiveAudio(_ isImmersive: Bool = true, for option: MediaSelectionOption = .any) -> Self {
        audioRendition(option, where: [.immersive(isImmersive)])
    }

    /// The rendition matching `option` is (or is not) a downmix.
    public static func downmixAudio(_ isDownmix: Bool = true, for option: MediaSelectionOption = .any) -> Self {
        audioRendition(option, where: [.downmix(isDownmix)])
    }

    /// The rendition matching `option` has a SAMPLE-RATE satisfying `op rate`.
    public static func audioSampleRate(_ op: ComparisonOperator, _ rate: Int, for option: MediaSelectionOption = .any) -> Self {
        audioRendition(option, where: [.sampleRate(op, rate)])
    }

    /// The presentation width satisfies `op width` (false for a variant without RESOLUTION).
    public static func presentationWidth(_ op: ComparisonOperator, _ width: Int) -> Self {
        value(of: .presentationWidth, op, Double(width))
    }

    /// The presentation height satisfies `op height` (false for a variant without RESOLUTION).
    public static func presentationHeight(_ op: ComparisonOperator, _ height: Int) -> Self {
        value(of: .presentationHeight, op, Double(height))
    }

    /// A numeric key path satisfies `op value`; a collection key path needs one element that
    /// does. Non-numeric key paths never match.
    public static func value(of key: VariantKeyPath, _ op: ComparisonOperator, _ value: Double) -> Self {
        guard key.valueType == .number else { return .never }
        let test: PredicateNode.ValueTest =
            switch op {
            case .equal: .equal(.number(value), [])
            case .notEqual: .notEqual(.number(value), [])
            default: .order(op, value)
            }
        return .init(node: .key(key, key.isCollection ? .any : nil, test))
    }

    // MARK: Description

    /// The predicate as a format string that parses back to an equivalent predicate;
    /// per-rendition constructors print as `SUBQUERY(audioAttributes.renditions, $r, …)`.
    public var description: String { Self.describe(node, parentIsAnd: nil) }

    private static func group(_ s: String, isAnd: Bool, parentIsAnd: Bool?) -> String {
        parentIsAnd == nil || parentIsAnd == isAnd ? s : "(\(s))"
    }

    private static func describe(_ n: PredicateNode, parentIsAnd: Bool?) -> String {
        switch n {
        case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let a, let b):
            return group(describe(a, parentIsAnd: true) + " AND " + describe(b, parentIsAnd: true), isAnd: true, parentIsAnd: parentIsAnd)
        case .or(let a, let b):
            return group(describe(a, parentIsAnd: false) + " OR " + describe(b, parentIsAnd: false), isAnd: false, parentIsAnd: parentIsAnd)
        case .not(let a):
            let inner = describe(a, parentIsAnd: nil)
            if case .and = a { return "NOT (\(inner))" }
            if case .or = a { return "NOT (\(inner))" }
            return "NOT " + inner
        case .renditions(let body, let op, let count):
            return "SUBQUERY(audioAttributes.renditions, $r, \(describe(body, parentIsAnd: nil))).@count \(op.rawValue) \(count)"
        case .key(let key, let q, let test):
            return describe(test, key: (q.map { $0.rawValue + " " } ?? "") + key.name)
        case .count(let key, let test):
            let collection =
                switch key {
                case .audioName: "audioAttributes.renditions"
                case .subtitleName: "subtitleRenditions"
                default: key.name
                }
            return describe(test, key: collection + ".@count")
        }
    }

    private static func describe(_ n: RenditionPredicateNode, parentIsAnd: Bool?) -> String {
        switch n {
        case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let a, let b):
            return group(describe(a, parentIsAnd: true) + " AND " + describe(b, parentIsAnd: true), isAnd: true, parentIsAnd: parentIsAnd)
        case .or(let a, let b):
            return group(describe(a, parentIsAnd: false) + " OR " + describe(b, parentIsAnd: false), isAnd: false, parentIsAnd: parentIsAnd)
        case .not(let a):
            return "NOT (\(describe(a, parentIsAnd: nil)))"
        case .key(let key, let q, let test):
            return describe(test, key: (q.map { $0.rawValue + " " } ?? "") + "$r." + key.name)
        case .condition(let c):
            return "$r." + c.description
        case .option(let o):
            var parts: [String] = []
            if let l = o.language { parts.append("$r.language == \(PredicateScalar.string(l))") }
            if let name = o.name { parts.append("$r.name ==[c] \(PredicateScalar.string(name))") }
            if let g = o.groupID { parts.append("$r.groupID == \(PredicateScalar.string(g))") }
            parts += o.characteristics.map { "$r.characteristics CONTAINS \(PredicateScalar.string($0))" }
            if parts.isEmpty { return "TRUEPREDICATE" }
            return parts.count == 1 ? parts[0] : group(parts.joined(separator: " AND "), isAnd: true, parentIsAnd: parentIsAnd)
        }
    }

    private static func describe(_ test: PredicateNode.ValueTest, key k: String) -> String {
        switch test {
        case .isNil: return "\(k) == nil"
        case .isNotNil: return "\(k) != nil"
        case .isTrue: return k
        case .equal(let v, let o): return "\(k) ==\(o.suffix) \(v)"
        case .notEqual(let v, let o): return "\(k) !=\(o.suffix) \(v)"
        case .order(let op, let v): return "\(k) \(op.rawValue) \(PredicateScalar.number(v))"
        case .between(let lo, let hi): return "\(k) BETWEEN {\(PredicateScalar.number(lo)), \(PredicateScalar.number(hi))}"
        case .oneOf(let vs, let o): return "\(k) IN\(o.suffix) {\(vs.map(\.description).joined(separator: ", "))}"
        case .language(let tags, let negated):
            if tags.count == 1 { return "\(k) \(negated ? "!=" : "==") \(PredicateScalar.string(tags[0]))" }
            let list = "\(k) IN {\(tags.map { PredicateScalar.string($0).description }.joined(separator: ", "))}"
            return negated ? "NOT \(list)" : list
        case .contains(let s, let o), .collectionContains(.string(let s), let o):
            return "\(k) CONTAINS\(o.suffix) \(PredicateScalar.string(s))"
        case .collectionContains(let v, let o): return "\(k) CONTAINS\(o.suffix) \(v)"
        case .beginsWith(let s, let o): return "\(k) BEGINSWITH\(o.suffix) \(PredicateScalar.string(s))"
        case .endsWith(let s, let o): return "\(k) ENDSWITH\(o.suffix) \(PredicateScalar.string(s))"
        case .like(let s, let o): return "\(k) LIKE\(o.suffix) \(PredicateScalar.string(s))"
        }
    }
}
