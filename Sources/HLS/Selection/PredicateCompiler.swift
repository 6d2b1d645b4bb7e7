/// Type-checks predicate syntax against the variant key paths (and, inside a `SUBQUERY`, the
/// audio rendition key paths) and turns it into a `PredicateNode`. Every rejection names the
/// column of the offending key path, operator or literal and what was expected there.
enum PredicateCompiler {
    typealias Syntax = PredicateSyntax

    static func compile(_ syntax: Syntax) throws(PredicateFormatError) -> PredicateNode {
        switch syntax {
        case .constant(let b): return .constant(b)
        case .and(let a, let b): return .and(try compile(a), try compile(b))
        case .or(let a, let b): return .or(try compile(a), try compile(b))
        case .not(let a): return .not(try compile(a))
        case .keyPath(let quantifier, let k):
            let key = try variantKey(k)
            try checkBoolean(key, k)
            try checkQuantifier(quantifier.map { ($0, k.column) }, key: key, keyColumn: k.column, op: nil)
            return .key(key, quantifier, .isTrue)
        case .comparison(let c):
            let (k, op, value) = try normalise(c)
            if k.variable == nil, k.name.hasSuffix(".@count") {
                let base = try countedKey(k)
                let (_, test) = try keyTest(CountKey(base: base, text: k.name), c, op: op, keyColumn: k.column, value: value)
                return .count(base, test)
            }
            let key = try variantKey(k)
            let (q, test) = try keyTest(key, c, op: op, keyColumn: k.column, value: value)
            return .key(key, q, test)
        case .subquery(let s):
            guard s.collection.variable == nil, s.collection.name == "audioAttributes.renditions" else {
                throw PredicateFormatError(
                    .unknownKeyPath, column: s.collection.column,
                    "SUBQUERY over '\(s.collection.text)' is not supported; expected audioAttributes.renditions")
            }
            let ops: [PredicateOperator: ComparisonOperator] = [
                .equal: .equal, .notEqual: .notEqual, .lessThan: .lessThan, .lessThanOrEqual: .lessThanOrEqual,
                .greaterThan: .greaterThan, .greaterThanOrEqual: .greaterThanOrEqual,
            ]
            guard let op = ops[s.op] else {
                throw PredicateFormatError(
                    .unsupportedOperator, column: s.opColumn,
                    "\(s.op.rawValue) cannot compare a count; expected ==, !=, <, <=, > or >=")
            }
            guard case .number(let n) = s.count.value, n >= 0, n == n.rounded(), n < 1e9 else {
                throw PredicateFormatError(
                    .typeMismatch, column: s.count.column,
                    "@count is a whole number; expected a whole number, found \(s.count.text)")
            }
            return .renditions(try rendition(s.body, variable: s.variable), op, Int(n))
        }
    }

    /// The body of a SUBQUERY over audio renditions, whose key paths start with `$variable.`.
    static func rendition(_ syntax: Syntax, variable: String) throws(PredicateFormatError) -> RenditionPredicateNode {
        func key(_ k: Syntax.KeyPath) throws(PredicateFormatError) -> AudioRenditionKeyPath {
            guard let v = k.variable, v == variable else {
                throw PredicateFormatError(
                    .unknownKeyPath, column: k.column,
                    "inside SUBQUERY, key paths start with $\(variable); found '\(k.text)'")
            }
            return try AudioRenditionKeyPath.resolve(k.name, variable: variable, column: k.column)
        }
        switch syntax {
        case .constant(let b): return .constant(b)
        case .and(let a, let b): return .and(try rendition(a, variable: variable), try rendition(b, variable: variable))
        case .or(let a, let b): return .or(try rendition(a, variable: variable), try rendition(b, variable: variable))
        case .not(let a): return .not(try rendition(a, variable: variable))
        case .keyPath(let quantifier, let k):
            let resolved = try key(k)
            try checkBoolean(resolved, k)
            try checkQuantifier(quantifier.map { ($0, k.column) }, key: resolved, keyColumn: k.column, op: nil)
            return .key(resolved, quantifier, .isTrue)
        case .comparison(let c):
            let (k, op, value) = try normalise(c)
            let resolved = try key(k)
            let (q, test) = try keyTest(resolved, c, op: op, keyColumn: k.column, value: value)
            return .key(resolved, q, test)
        case .subquery(let s):
            throw PredicateFormatError(.unexpectedToken, column: s.column, "SUBQUERY cannot be nested")
        }
    }

    /// The collection counted by `collection.@count`; `audioAttributes.renditions` and
    /// `subtitleRenditions` count renditions.
    private static func countedKey(_ k: Syntax.KeyPath) throws(PredicateFormatError) -> VariantKeyPath {
        let name = String(k.name.dropLast(".@count".count))
        switch name {
        case "audioAttributes.renditions": return .audioName
        case "subtitleRenditions": return .subtitleName
        default:
            let key = try VariantKeyPath.resolve(name, column: k.column)
            guard key.isCollection else {
                throw PredicateFormatError(
                    .typeMismatch, column: k.column,
                    "\(key.name) has a single value; @count applies to collections")
            }
            return key
        }
    }

    /// `collection.@count` as a number key path, for the type checker.
    private struct CountKey: PredicateKey {
        var base: VariantKeyPath
        var text: String
        var name: String { text }
        var valueType: VariantKeyPath.ValueType { .number }
        var isCollection: Bool { false }
        var allowedValues: [String]? { nil }
        var isLanguage: Bool { false }
    }

    private static func variantKey(_ k: Syntax.KeyPath) throws(PredicateFormatError) -> VariantKeyPath {
        if k.variable != nil {
            throw PredicateFormatError(
                .unknownKeyPath, column: k.column,
                "'\(k.text)' is only defined inside SUBQUERY(audioAttributes.renditions, \(k.text.split(separator: ".").first ?? "$r"), …)")
        }
        return try VariantKeyPath.resolve(k.name, column: k.column)
    }

    private static func checkBoolean(_ key: some PredicateKey, _ k: Syntax.KeyPath) throws(PredicateFormatError) {
        guard key.valueType == .boolean else {
            throw PredicateFormatError(
                .typeMismatch, column: k.column + k.text.count,
                "\(k.text) is a \(key.valueType.rawValue), not a boolean; expected an operator after it")
        }
    }

    /// The key path, operator and value of a comparison, with the key path on the left.
    private static func normalise(_ c: Syntax.Comparison) throws(PredicateFormatError) -> (Syntax.KeyPath, PredicateOperator, Syntax.Operand) {
        switch (c.lhs, c.rhs) {
        case (.keyPath(let k), .keyPath(let r)):
            throw PredicateFormatError(
                .typeMismatch, column: r.column,
                "comparing key path \(k.text) with key path \(r.text) is not supported; expected a literal")
        case (.keyPath(let k), _):
            return (k, c.op, c.rhs)
        case (_, .keyPath(let k)):
            guard let s = c.op.swapped else {
                throw PredicateFormatError(
                    .unsupportedOperator, column: c.opColumn,
                    "\(c.op.rawValue) with a literal on its left is not supported; expected the key path first")
            }
            return (k, s, c.lhs)
        default:
            throw PredicateFormatError(.unexpectedToken, column: c.lhs.column, "expected a key path on one side of \(c.op.rawValue)")
        }
    }

    private static func keyTest(
        _ key: some PredicateKey, _ c: Syntax.Comparison, op: PredicateOperator, keyColumn: Int,
        value: Syntax.Operand
    ) throws(PredicateFormatError) -> (Quantifier?, PredicateNode.ValueTest) {
        try checkQuantifier(c.quantifier, key: key, keyColumn: keyColumn, op: op)
        if key.isCollection && c.quantifier == nil {
            // CONTAINS on a collection: one element equals the value (names the language).
            let literal = try single(value, for: key, op: op)
            let element = try scalar(literal, for: key)
            if key.isLanguage, case .string(let tag) = element { return (.any, .language([tag], negated: false)) }
            return (nil, .collectionContains(element, c.options))
        }
        return (c.quantifier?.0, try test(op, options: c.options, opColumn: c.opColumn, value: value, key: key))
    }

    private static func checkQuantifier(
        _ q: (Quantifier, column: Int)?, key: some PredicateKey, keyColumn: Int,
        op: PredicateOperator?
    ) throws(PredicateFormatError) {
        if let q, !key.isCollection {
            throw PredicateFormatError(
                .typeMismatch, column: q.column,
                "\(q.0.rawValue) applies to collection key paths; \(key.name) has a single value")
        }
        if q == nil, key.isCollection, op != .contains {
            throw PredicateFormatError(
                .typeMismatch, column: keyColumn,
                "\(key.name) is a collection; expected ANY, ALL or NONE before it, or CONTAINS after it")
        }
    }

    private static func single(
        _ operand: Syntax.Operand, for key: some PredicateKey,
        op: PredicateOperator
    ) throws(PredicateFormatError) -> Syntax.Literal {
        guard case .literal(let l) = operand else {
            throw PredicateFormatError(
                .typeMismatch, column: operand.column,
                "expected a single \(key.valueType.rawValue) after \(op.rawValue), found a list")
        }
        return l
    }

    private static func article(_ t: VariantKeyPath.ValueType) -> String { "a \(t.rawValue)" }

    private static func found(_ l: Syntax.Literal) -> String {
        switch l.value {
        case .number: "the number \(l.text)"
        case .string: "the string \(l.text)"
        case .bool: "the boolean \(l.text)"
        case .null: "nil"
        }
    }

    /// The literal as a value of the key path's type, or a type-mismatch error at its column.
    private static func scalar(_ l: Syntax.Literal, for key: some PredicateKey) throws(PredicateFormatError) -> PredicateScalar {
        switch (key.valueType, l.value) {
        case (.number, .number(let n)): return .number(n)
        case (.boolean, .bool(let b)): return .bool(b)
        case (.string, .string(let s)):
            if let allowed = key.allowedValues {
                guard let canonical = allowed.first(where: { $0.lowercased() == s.lowercased() }) else {
                    throw PredicateFormatError(
                        .invalidValue, column: l.column,
                        "\(key.name) is never \(l.text); expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
                }
                return .string(canonical)
            }
            return .string(s)
        default:
            throw PredicateFormatError(
                .typeMismatch, column: l.column,
                "\(key.name) is \(article(key.valueType)); expected \(article(key.valueType)), found \(found(l))")
        }
    }

    private static func test(
        _ op: PredicateOperator, options: StringComparisonOptions, opColumn: Int,
        value: Syntax.Operand, key: some PredicateKey
    ) throws(PredicateFormatError) -> PredicateNode.ValueTest {
        let type = key.valueType
        func needs(_ t: VariantKeyPath.ValueType) throws(PredicateFormatError) {
            guard type == t else {
                throw PredicateFormatError(
                    .unsupportedOperator, column: opColumn,
                    "\(op.rawValue) needs \(article(t)); \(key.name) is \(article(type))")
            }
        }
        switch op {
        case .equal, .notEqual:
            let l = try single(value, for: key, op: op)
            if l.value == .null { return op == .equal ? .isNil : .isNotNil }
            let s = try scalar(l, for: key)
            if key.isLanguage, case .string(let tag) = s { return .language([tag], negated: op == .notEqual) }
            return op == .equal ? .equal(s, options) : .notEqual(s, options)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            try needs(.number)
            guard case .number(let n) = try scalar(try single(value, for: key, op: op), for: key) else {
                throw PredicateFormatError(.typeMismatch, column: value.column, "expected a number")
            }
            let map: [PredicateOperator: ComparisonOperator] = [
                .lessThan: .lessThan, .lessThanOrEqual: .lessThanOrEqual, .greaterThan: .greaterThan,
                .greaterThanOrEqual: .greaterThanOrEqual,
            ]
            return .order(map[op]!, n)
        case .between:
            try needs(.number)
            guard case .list(let items, _) = value, items.count == 2 else {
                throw PredicateFormatError(.typeMismatch, column: value.column, "BETWEEN expects a list of two numbers, {low, high}")
            }
            guard case .number(let lo) = try scalar(items[0], for: key),
                case .number(let hi) = try scalar(items[1], for: key)
            else {
                throw PredicateFormatError(.typeMismatch, column: value.column, "BETWEEN expects a list of two numbers")
            }
            return .between(lo, hi)
        case .in:
            guard case .list(let items, _) = value else {
                throw PredicateFormatError(
                    .typeMismatch, column: value.column,
                    "IN expects a list such as {\"PQ\", \"HLG\"}, found a single value")
            }
            var scalars: [PredicateScalar] = []
            for item in items { scalars.append(try scalar(item, for: key)) }
            if key.isLanguage {
                return .language(scalars.compactMap { if case .string(let s) = $0 { s } else { nil } }, negated: false)
            }
            return .oneOf(scalars, options)
        case .contains, .beginsWith, .endsWith, .like:
            try needs(.string)
            let l = try single(value, for: key, op: op)
            guard case .string(let s) = l.value else {
                throw PredicateFormatError(
                    .typeMismatch, column: l.column,
                    "\(op.rawValue) expects a string, found \(found(l))")
            }
            switch op {
            case .contains: return .contains(s, options)
            case .beginsWith: return .beginsWith(s, options)
            case .endsWith: return .endsWith(s, options)
            default: return .like(s, options)
            }
        }
    }
}
