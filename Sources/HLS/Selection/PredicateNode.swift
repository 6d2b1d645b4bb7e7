import Foundation

/// A type-checked predicate, ready to evaluate. Built once by `PredicateCompiler` from the
/// syntax of a format string, or directly by the `VariantPredicate` constructors.
indirect enum PredicateNode: Sendable, Hashable {
    case constant(Bool)
    case and(PredicateNode, PredicateNode)
    case or(PredicateNode, PredicateNode)
    case not(PredicateNode)
    case key(VariantKeyPath, Quantifier?, ValueTest)
    /// `collection.@count` tested as a number (the key path's number of values).
    case count(VariantKeyPath, ValueTest)
    /// `SUBQUERY(audioAttributes.renditions, $r, node).@count op count`.
    case renditions(RenditionPredicateNode, ComparisonOperator, Int)

    /// What is checked of one value at a key path. Type checking guarantees that the value
    /// and the literals have the same type, so a mismatch at run time just fails.
    enum ValueTest: Sendable, Hashable {
        case isNil
        case isNotNil
        case isTrue
        case equal(PredicateScalar, StringComparisonOptions)
        case notEqual(PredicateScalar, StringComparisonOptions)
        case order(ComparisonOperator, Double)
        case between(Double, Double)
        case oneOf([PredicateScalar], StringComparisonOptions)
        case contains(String, StringComparisonOptions)
        case beginsWith(String, StringComparisonOptions)
        case endsWith(String, StringComparisonOptions)
        case like(String, StringComparisonOptions)
        /// A collection key path without quantifier: one element equals the value.
        case collectionContains(PredicateScalar, StringComparisonOptions)
        /// A language tag naming one of these languages (or, negated, none of them).
        case language([String], negated: Bool)
    }

    /// Evaluates against `v`: nil when false, otherwise the indices of the audio renditions
    /// that satisfied per-rendition parts (`ANY audioAttributes.renditions…`, `audioRendition`).
    func evaluate(_ v: Variant) -> Set<Int>? {
        switch self {
        case .constant(let b):
            return b ? [] : nil
        case .and(let a, let b):
            guard let x = a.evaluate(v), let y = b.evaluate(v) else { return nil }
            return x.union(y)
        case .or(let a, let b):
            let x = a.evaluate(v)
            let y = b.evaluate(v)
            if x == nil && y == nil { return nil }
            return (x ?? []).union(y ?? [])
        case .not(let a):
            return a.evaluate(v) == nil ? [] : nil
        case .count(let key, let test):
            return test.matches(.number(Double(key.values(in: v).count))) ? [] : nil
        case .renditions(let node, let op, let count):
            let renditions = v.audioAttributes?.renditions ?? []
            let hits = renditions.indices.filter { node.matches(renditions[$0]) }
            return op.compare(Double(hits.count), Double(count)) ? Set(hits) : nil
        case .key(let key, let quantifier, let test):
            let values = key.values(in: v)
            switch quantifier {
            case nil:
                if case .collectionContains(let wanted, let options) = test {
                    let hits = values.indices.filter { values[$0].map { Self.equal($0, wanted, options) } ?? false }
                    return hits.isEmpty ? nil : key.isPerAudioRendition ? Set(hits) : []
                }
                return test.matches(values.first ?? nil) ? [] : nil
            case .any?:
                let hits = values.indices.filter { test.matches(values[$0]) }
                return hits.isEmpty ? nil : key.isPerAudioRendition ? Set(hits) : []
            case .all?:
                guard !values.isEmpty, values.allSatisfy({ test.matches($0) }) else { return nil }
                return key.isPerAudioRendition ? Set(values.indices) : []
            case .none?:
                return values.contains(where: { test.matches($0) }) ? nil : []
            }
        }
    }

    static func fold(_ s: String, _ options: StringComparisonOptions) -> String {
        var o: String.CompareOptions = []
        if options.contains(.caseInsensitive) { o.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { o.insert(.diacriticInsensitive) }
        return o.isEmpty ? s : s.folding(options: o, locale: nil)
    }

    static func equal(_ a: PredicateScalar, _ b: PredicateScalar, _ options: StringComparisonOptions) -> Bool {
        if case .string(let x) = a, case .string(let y) = b { return fold(x, options) == fold(y, options) }
        return a == b
    }

    /// `*` matches any run of characters, `?` one character.
    static func like(_ text: Substring, _ pattern: Substring) -> Bool {
        guard let p = pattern.first else { return text.isEmpty }
        if p == "*" {
            var t = text
            while true {
                if like(t, pattern.dropFirst()) { return true }
                if t.isEmpty { return false }
                t = t.dropFirst()
            }
        }
        guard let c = text.first, p == "?" || p == c else { return false }
        return like(text.dropFirst(), pattern.dropFirst())
    }
}

extension PredicateNode.ValueTest {
    /// The test on one value; a missing value fails every test but `isNil`.
    func matches(_ value: PredicateScalar?) -> Bool {
        guard let value else { return self == .isNil }
        switch self {
        case .isNil: return false
        case .isNotNil: return true
        case .isTrue: return value == .bool(true)
        case .equal(let x, let o), .collectionContains(let x, let o): return PredicateNode.equal(value, x, o)
        case .notEqual(let x, let o): return !PredicateNode.equal(value, x, o)
        case .order(let op, let n):
            guard case .number(let v) = value else { return false }
            return op.compare(v, n)
        case .between(let lo, let hi):
            guard case .number(let v) = value else { return false }
            return lo <= v && v <= hi
        case .oneOf(let xs, let o): return xs.contains { PredicateNode.equal(value, $0, o) }
        case .language(let tags, let negated):
            guard case .string(let v) = value else { return false }
            return tags.contains { MediaSelectionOption.languagesMatch($0, v) } != negated
        case .contains(let s, let o), .beginsWith(let s, let o), .endsWith(let s, let o), .like(let s, let o):
            guard case .string(let v) = value else { return false }
            let text = PredicateNode.fold(v, o)
            let pattern = PredicateNode.fold(s, o)
            switch self {
            case .contains: return pattern.isEmpty || text.contains(pattern)
            case .beginsWith: return text.hasPrefix(pattern)
            case .endsWith: return text.hasSuffix(pattern)
            default: return PredicateNode.like(text[...], pattern[...])
            }
        }
    }
}

/// A type-checked predicate on one audio rendition: the body of a `SUBQUERY`, or what the
/// per-rendition constructors build from a media selection option and conditions.
indirect enum RenditionPredicateNode: Sendable, Hashable {
    case constant(Bool)
    case and(RenditionPredicateNode, RenditionPredicateNode)
    case or(RenditionPredicateNode, RenditionPredicateNode)
    case not(RenditionPredicateNode)
    case key(AudioRenditionKeyPath, Quantifier?, PredicateNode.ValueTest)
    case option(MediaSelectionOption)
    case condition(AudioRenditionCondition)

    func matches(_ r: Variant.AudioRendition) -> Bool {
        switch self {
        case .constant(let b): return b
        case .and(let a, let b): return a.matches(r) && b.matches(r)
        case .or(let a, let b): return a.matches(r) || b.matches(r)
        case .not(let a): return !a.matches(r)
        case .option(let o): return o.matches(r)
        case .condition(let c): return c.matches(r)
        case .key(let key, let quantifier, let test):
            let values = key.values(in: r)
            switch quantifier {
            case nil:
                if case .collectionContains(let wanted, let o) = test {
                    return values.contains { $0.map { PredicateNode.equal($0, wanted, o) } ?? false }
                }
                return test.matches(values.first ?? nil)
            case .any?: return values.contains { test.matches($0) }
            case .all?: return !values.isEmpty && values.allSatisfy { test.matches($0) }
            case .none?: return !values.contains { test.matches($0) }
            }
        }
    }
}
