/// The untyped syntax tree of a predicate format string, with columns kept for the type
/// checker's messages. `PredicateParser` builds it; `VariantPredicate(format:)` checks it.
indirect enum PredicateSyntax: Sendable, Hashable {
    case and(PredicateSyntax, PredicateSyntax)
    case or(PredicateSyntax, PredicateSyntax)
    case not(PredicateSyntax)
    case constant(Bool)
    case comparison(Comparison)
    /// A boolean key path used as a predicate on its own (`ANY audioAttributes.renditions.isImmersive`).
    case keyPath(Quantifier?, KeyPath)
    /// `SUBQUERY(collection, $variable, body).@count op count`.
    case subquery(Subquery)

    struct KeyPath: Sendable, Hashable {
        var name: String
        var column: Int
        /// `r` in `$r.channelCount`; nil for a key path of the variant.
        var variable: String? = nil

        var text: String { variable.map { "$\($0)" + (name.isEmpty ? "" : ".") + name } ?? name }
    }

    struct Subquery: Sendable, Hashable {
        var column: Int
        var collection: KeyPath
        var variable: String
        var body: PredicateSyntax
        var op: PredicateOperator
        var opColumn: Int
        var count: Literal
    }

    enum Value: Sendable, Hashable {
        case number(Double), string(String), bool(Bool), null
    }

    struct Literal: Sendable, Hashable {
        var value: Value
        var column: Int
        var text: String
    }

    enum Operand: Sendable, Hashable {
        case keyPath(KeyPath)
        case literal(Literal)
        /// `{a, b, c}`; column of the brace.
        case list([Literal], column: Int)

        var column: Int {
            switch self {
            case .keyPath(let k): k.column
            case .literal(let l): l.column
            case .list(_, let c): c
            }
        }
    }

    struct Comparison: Sendable, Hashable {
        var quantifier: (Quantifier, column: Int)?
        var lhs: Operand
        var op: PredicateOperator
        var options: StringComparisonOptions
        var opColumn: Int
        var rhs: Operand

        static func == (a: Self, b: Self) -> Bool {
            a.quantifier?.0 == b.quantifier?.0 && a.quantifier?.column == b.quantifier?.column && a.lhs == b.lhs
                && a.op == b.op && a.options == b.options && a.opColumn == b.opColumn && a.rhs == b.rhs
        }
        func hash(into h: inout Hasher) {
            h.combine(lhs)
            h.combine(op)
            h.combine(rhs)
        }
    }
}

/// `ANY`, `ALL`, `NONE` in front of a collection key path.
enum Quantifier: String, Sendable, Hashable {
    case any = "ANY", all = "ALL", none = "NONE"
}

/// The operators of the language.
enum PredicateOperator: String, Sendable, Hashable {
    case equal = "==", notEqual = "!=", lessThan = "<", lessThanOrEqual = "<=", greaterThan = ">"
    case greaterThanOrEqual = ">=", `in` = "IN", contains = "CONTAINS", beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH", like = "LIKE", between = "BETWEEN"

    /// The operator with its operands swapped (`5 < x` is `x > 5`); nil when there is none.
    var swapped: PredicateOperator? {
        switch self {
        case .equal, .notEqual: self
        case .lessThan: .greaterThan
        case .lessThanOrEqual: .greaterThanOrEqual
        case .greaterThan: .lessThan
        case .greaterThanOrEqual: .lessThanOrEqual
        case .in: .contains
        case .contains, .beginsWith, .endsWith, .like, .between: nil
        }
    }
}

/// String comparison options: `[c]` case-insensitive, `[d]` diacritic-insensitive.
struct StringComparisonOptions: OptionSet, Sendable, Hashable {
    let rawValue: Int
    static let caseInsensitive = StringComparisonOptions(rawValue: 1)
    static let diacriticInsensitive = StringComparisonOptions(rawValue: 2)

    var suffix: String {
        if isEmpty { return "" }
        return "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}
