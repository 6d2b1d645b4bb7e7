/// Type-checks predicate syntax against the variant key paths and turns it into a
/// `PredicateNode`. Every rejection names the column of the offending key path, operator or
/// literal and what was expected there.
enum PredicateCompiler {
    typealias Syntax = PredicateSyntax

    static func compile(_ syntax: Syntax) throws(PredicateFormatError) -> PredicateNode {
        switch syntax {
        case .constant(let b): return .constant(b)
        case .and(let a, let b): return .and(try compile(a), try compile(b))
        case .or(let a, let b): return .or(try compile(a), try compile(b))
        case .not(let a): return .not(try compile(a))
        case .keyPath(let quantifier, let k):
            let key = try VariantKeyPath.resolve(k.name, column: k.column)
            guard key.valueType == .boolean else {
                throw PredicateFormatError(.typeMismatch, column: k.column + k.name.count,
                                     "\(key.name) is a \(key.valueType.rawValue), not a boolean; expected an operator after it")
            }
            try checkQuantifier(quantifier.map { ($0, k.column) }, key: key, keyColumn: k.column, op: nil)
            return .key(key, quantifier, .isTrue)
        case .comparison(let c):
            return try comparison(c)
        }
    }

    private static func comparison(_ c: Syntax.Comparison) throws(PredicateFormatError) -> PredicateNode {
        var op = c.op
        let keyPath: Syntax.KeyPath, value: Syntax.Operand
        switch (c.lhs, c.rhs) {
        case (.keyPath(let k), .keyPath(let r)):
            throw PredicateFormatError(.typeMismatch, column: r.column,
                                 "comparing key path \(k.name) with key path \(r.name) is not supported; expected a literal")
        case (.keyPath(let k), _):
            keyPath = k; value = c.rhs
        case (_, .keyPath(let k)):
            guard let s = op.swapped else {
                throw PredicateFormatError(.unsupportedOperator, column: c.opColumn,
                                     "\(op.rawValue) with a literal on its left is not supported; expected the key path first")
            }
            keyPath = k; value = c.lhs; op = s
        default:
            throw PredicateFormatError(.unexpectedToken, column: c.lhs.column, "expected a key path on one side of \(op.rawValue)")
        }
        let key = try VariantKeyPath.resolve(keyPath.name, column: keyPath.column)
        try checkQuantifier(c.quantifier, key: key, keyColumn: keyPath.column, op: op)
        if key.isCollection && c.quantifier == nil {
            // CONTAINS on a collection: one element equals the value.
            let literal = try single(value, for: key, op: op)
            let scalar = try scalar(literal, for: key)
            return .key(key, nil, .collectionContains(scalar, c.options))
        }
        return .key(key, c.quantifier?.0, try test(op, options: c.options, opColumn: c.opColumn, value: value, key: key))
    }

    private static func checkQuantifier(_ q: (Quantifier, column: Int)?, key: VariantKeyPath, keyColumn: Int,
                                        op: PredicateOperator?) throws(PredicateFormatError) {
        if let q, !key.isCollection {
            throw PredicateFormatError(.typeMismatch, column: q.column,
                                 "\(q.0.rawValue) applies to collection key paths; \(key.name) has a single value")
        }
        if q == nil, key.isCollection, op != .contains {
            throw PredicateFormatError(.typeMismatch, column: keyColumn,
                                 "\(key.name) is a collection; expected ANY, ALL or NONE before it, or CONTAINS after it")
        }
    }

    private static func single(_ operand: Syntax.Operand, for key: VariantKeyPath,
                               op: PredicateOperator) throws(PredicateFormatError) -> Syntax.Literal {
        guard case .literal(let l) = operand else {
            throw PredicateFormatError(.typeMismatch, column: operand.column,
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
    private static func scalar(_ l: Syntax.Literal, for key: VariantKeyPath) throws(PredicateFormatError) -> PredicateScalar {
        let mismatch = PredicateFormatError(.typeMismatch, column: l.column,
                                      "\(key.name) is \(article(key.valueType)); expected \(article(key.valueType)), found \(found(l))")
        switch (key.valueType, l.value) {
        case (.number, .number(let n)): return .number(n)
        case (.boolean, .bool(let b)): return .bool(b)
        case (.string, .string(let s)):
            if let allowed = key.allowedValues {
                guard let canonical = allowed.first(where: { $0.lowercased() == s.lowercased() }) else {
                    throw PredicateFormatError(.invalidValue, column: l.column,
                                         "\(key.name) is never \(l.text); expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
                }
                return .string(canonical)
            }
            return .string(s)
        default: throw mismatch
        }
    }

    private static func test(_ op: PredicateOperator, options: StringComparisonOptions, opColumn: Int,
                             value: Syntax.Operand, key: VariantKeyPath) throws(PredicateFormatError) -> PredicateNode.ValueTest {
        let type = key.valueType
        func needs(_ t: VariantKeyPath.ValueType) throws(PredicateFormatError) {
            guard type == t else {
                throw PredicateFormatError(.unsupportedOperator, column: opColumn,
                                     "\(op.rawValue) needs \(article(t)); \(key.name) is \(article(type))")
            }
        }
        switch op {
        case .equal, .notEqual:
            let l = try single(value, for: key, op: op)
            if l.value == .null { return op == .equal ? .isNil : .isNotNil }
            let s = try scalar(l, for: key)
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
                  case .number(let hi) = try scalar(items[1], for: key) else {
                throw PredicateFormatError(.typeMismatch, column: value.column, "BETWEEN expects a list of two numbers")
            }
            return .between(lo, hi)
        case .in:
            guard case .list(let items, _) = value else {
                throw PredicateFormatError(.typeMismatch, column: value.column,
                                     "IN expects a list such as {\"PQ\", \"HLG\"}, found a single value")
            }
            var scalars: [PredicateScalar] = []
            for item in items { scalars.append(try scalar(item, for: key)) }
            return .oneOf(scalars, options)
        case .contains, .beginsWith, .endsWith, .like:
            try needs(.string)
            let l = try single(value, for: key, op: op)
            guard case .string(let s) = l.value else {
                throw PredicateFormatError(.typeMismatch, column: l.column,
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
