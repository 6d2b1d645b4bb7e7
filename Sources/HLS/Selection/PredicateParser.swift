/// Recursive-descent parser of predicate format strings.
///
/// ```
/// predicate  := or
/// or         := and (("OR" | "||") and)*
/// and        := not (("AND" | "&&") not)*
/// not        := ("NOT" | "!") not | primary
/// primary    := "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | subquery | comparison
/// subquery   := "SUBQUERY" "(" keypath "," variable "," predicate ")" "." "@count" operator number
/// comparison := [quantifier] operand [operator [options] operand]   -- no operator: a boolean key path
/// quantifier := "ANY" | "SOME" | "ALL" | "NONE"
/// operator   := "==" | "=" | "!=" | "<>" | "<" | "<=" | "=<" | ">" | ">=" | "=>"
///             | "IN" | "CONTAINS" | "BEGINSWITH" | "ENDSWITH" | "LIKE" | "BETWEEN"
/// options    := "[c]" | "[d]" | "[cd]"
/// operand    := keypath | literal | "{" [literal ("," literal)*] "}"
/// keypath    := identifier ("." identifier)* | variable ("." identifier)*
/// variable   := "$" identifier
/// literal    := number | 'string' | "string" | TRUE | YES | FALSE | NO | NIL | NULL
/// ```
/// Keywords are case-insensitive, as in NSPredicate; key paths are case-sensitive.
struct PredicateParser {
    private var tokens: [PredicateToken]
    private var position = 0

    static func parse(_ format: String) throws(PredicateFormatError) -> PredicateSyntax {
        var parser = PredicateParser(tokens: try PredicateLexer.tokens(format))
        let syntax = try parser.orExpression()
        let t = parser.current
        guard t.kind == .end else {
            throw PredicateFormatError(.unexpectedToken, column: t.column, "unexpected '\(t.text)'; expected AND, OR or the end of the predicate")
        }
        return syntax
    }

    private init(tokens: [PredicateToken]) { self.tokens = tokens }

    private var current: PredicateToken { tokens[position] }
    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func keyword(_ t: PredicateToken) -> String? {
        if case .identifier(let s) = t.kind { return s.uppercased() }
        return nil
    }
    private func isSymbol(_ t: PredicateToken, _ s: String...) -> Bool {
        if case .symbol(let x) = t.kind { return s.contains(x) }
        return false
    }

    private static let reserved: Set<String> = [
        "AND", "OR", "NOT", "ANY", "SOME", "ALL", "NONE", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE",
        "BETWEEN", "TRUE", "FALSE", "YES", "NO", "NIL", "NULL", "TRUEPREDICATE", "FALSEPREDICATE", "MATCHES", "SUBQUERY",
    ]

    private mutating func orExpression() throws(PredicateFormatError) -> PredicateSyntax {
        var lhs = try andExpression()
        while keyword(current) == "OR" || isSymbol(current, "||") {
            advance()
            lhs = .or(lhs, try andExpression())
        }
        return lhs
    }

    private mutating func andExpression() throws(PredicateFormatError) -> PredicateSyntax {
        var lhs = try notExpression()
        while keyword(current) == "AND" || isSymbol(current, "&&") {
            advance()
            lhs = .and(lhs, try notExpression())
        }
        return lhs
    }

    private mutating func notExpression() throws(PredicateFormatError) -> PredicateSyntax {
        if keyword(current) == "NOT" || isSymbol(current, "!") {
            advance()
            return .not(try notExpression())
        }
        return try primary()
    }

    private mutating func primary() throws(PredicateFormatError) -> PredicateSyntax {
        let t = current
        if isSymbol(t, "(") {
            advance()
            let inner = try orExpression()
            guard isSymbol(current, ")") else {
                throw PredicateFormatError(
                    current.kind == .end ? .unexpectedEnd : .unexpectedToken, column: current.column,
                    "expected ')' to close the '(' at column \(t.column), found \(describe(current))")
            }
            advance()
            return inner
        }
        switch keyword(t) {
        case "TRUEPREDICATE":
            advance()
            return .constant(true)
        case "FALSEPREDICATE":
            advance()
            return .constant(false)
        case "SUBQUERY": return try subquery()
        default: break
        }
        return try comparison()
    }

    private mutating func expect(_ symbol: String, _ what: String) throws(PredicateFormatError) {
        guard isSymbol(current, symbol) else {
            throw PredicateFormatError(
                current.kind == .end ? .unexpectedEnd : .unexpectedToken, column: current.column,
                "expected '\(symbol)' \(what), found \(describe(current))")
        }
        advance()
    }

    private mutating func subquery() throws(PredicateFormatError) -> PredicateSyntax {
        let start = current.column
        advance()
        try expect("(", "after SUBQUERY")
        guard case .keyPath(let collection) = try operand() else {
            throw PredicateFormatError(
                .unexpectedToken, column: tokens[position - 1].column,
                "expected the collection key path as SUBQUERY's first argument")
        }
        try expect(",", "after SUBQUERY's collection")
        guard case .variable(let variable) = current.kind else {
            throw PredicateFormatError(
                .unexpectedToken, column: current.column,
                "expected a variable such as $r as SUBQUERY's second argument, found \(describe(current))")
        }
        advance()
        try expect(",", "after SUBQUERY's variable")
        let body = try orExpression()
        try expect(")", "to close the SUBQUERY at column \(start)")
        try expect(".", "and @count after SUBQUERY(…)")
        guard case .identifier(let count) = current.kind, count.lowercased() == "@count" else {
            throw PredicateFormatError(.unexpectedToken, column: current.column, "expected @count after SUBQUERY(…)., found \(describe(current))")
        }
        advance()
        guard let (op, opColumn) = try comparisonOperator() else {
            throw PredicateFormatError(
                current.kind == .end ? .unexpectedEnd : .unsupportedOperator, column: current.column,
                "expected a comparison operator after SUBQUERY(…).@count, found \(describe(current))")
        }
        guard let n = try literal() else {
            throw PredicateFormatError(
                current.kind == .end ? .unexpectedEnd : .unexpectedToken, column: current.column,
                "expected a number after SUBQUERY(…).@count \(op.rawValue), found \(describe(current))")
        }
        return .subquery(
            .init(
                column: start, collection: collection, variable: variable, body: body, op: op,
                opColumn: opColumn, count: n))
    }

    private mutating func comparison() throws(PredicateFormatError) -> PredicateSyntax {
        var quantifier: (Quantifier, column: Int)?
        switch keyword(current) {
        case "ANY", "SOME":
            quantifier = (.any, current.column)
            advance()
        case "ALL":
            quantifier = (.all, current.column)
            advance()
        case "NONE":
            quantifier = (.none, current.column)
            advance()
        default: break
        }
        let lhs = try operand()
        guard let (op, opColumn) = try comparisonOperator() else {
            let endsOperand =
                current.kind == .end || isSymbol(current, ")", "&&", "||")
                || keyword(current) == "AND" || keyword(current) == "OR"
            if case .keyPath(let k) = lhs, endsOperand { return .keyPath(quantifier?.0, k) }
            throw PredicateFormatError(
                current.kind == .end ? .unexpectedEnd : .unsupportedOperator, column: current.column,
                "expected an operator (==, !=, <, <=, >, >=, IN, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, BETWEEN), found \(describe(current))")
        }
        var options: StringComparisonOptions = []
        if case .symbol(let s) = current.kind, s.hasPrefix("[") {
            for c in s.dropFirst().dropLast() {
                switch c {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                default:
                    throw PredicateFormatError(
                        .unsupportedOperator, column: current.column,
                        "unknown comparison option '\(c)' in \(current.text); expected [c], [d] or [cd]")
                }
            }
            advance()
        }
        let rhs = try operand()
        return .comparison(.init(quantifier: quantifier, lhs: lhs, op: op, options: options, opColumn: opColumn, rhs: rhs))
    }

    private mutating func comparisonOperator() throws(PredicateFormatError) -> (PredicateOperator, Int)? {
        let t = current
        let op: PredicateOperator?
        switch t.kind {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .lessThan
        case .symbol("<="), .symbol("=<"): op = .lessThanOrEqual
        case .symbol(">"): op = .greaterThan
        case .symbol(">="), .symbol("=>"): op = .greaterThanOrEqual
        case .identifier:
            switch keyword(t) {
            case "IN": op = .in
            case "CONTAINS": op = .contains
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "LIKE": op = .like
            case "BETWEEN": op = .between
            case "MATCHES":
                throw PredicateFormatError(
                    .unsupportedOperator, column: t.column,
                    "MATCHES (regular expressions) is not supported; use LIKE with * and ? wildcards")
            default: op = nil
            }
        default: op = nil
        }
        guard let op else { return nil }
        advance()
        return (op, t.column)
    }

    private mutating func operand() throws(PredicateFormatError) -> PredicateSyntax.Operand {
        let t = current
        if isSymbol(t, "{") {
            advance()
            var items: [PredicateSyntax.Literal] = []
            if isSymbol(current, "}") {
                advance()
                return .list(items, column: t.column)
            }
            while true {
                guard let l = try literal() else {
                    throw PredicateFormatError(
                        current.kind == .end ? .unexpectedEnd : .unexpectedToken, column: current.column,
                        "expected a number or a string in the list, found \(describe(current))")
                }
                items.append(l)
                if isSymbol(current, ",") {
                    advance()
                    continue
                }
                if isSymbol(current, "}") {
                    advance()
                    return .list(items, column: t.column)
                }
                throw PredicateFormatError(
                    current.kind == .end ? .unexpectedEnd : .unexpectedToken, column: current.column,
                    "expected ',' or '}' in the list opened at column \(t.column), found \(describe(current))")
            }
        }
        if let l = try literal() { return .literal(l) }
        if case .variable(let variable) = t.kind {
            advance()
            var parts: [String] = []
            while isSymbol(current, ".") {
                advance()
                guard case .identifier(let part) = current.kind else {
                    throw PredicateFormatError(
                        .unexpectedToken, column: current.column,
                        "expected a key path component after '$\(variable).', found \(describe(current))")
                }
                parts.append(part)
                advance()
            }
            return .keyPath(.init(name: parts.joined(separator: "."), column: t.column, variable: variable))
        }
        if case .identifier(let first) = t.kind, !Self.reserved.contains(first.uppercased()) {
            var name = first
            advance()
            while isSymbol(current, ".") {
                advance()
                guard case .identifier(let part) = current.kind else {
                    throw PredicateFormatError(
                        .unexpectedToken, column: current.column,
                        "expected a key path component after '\(name).', found \(describe(current))")
                }
                name += "." + part
                advance()
            }
            return .keyPath(.init(name: name, column: t.column))
        }
        throw PredicateFormatError(
            t.kind == .end ? .unexpectedEnd : .unexpectedToken, column: t.column,
            "expected a key path, a number, a string or a {list}, found \(describe(t))")
    }

    private mutating func literal() throws(PredicateFormatError) -> PredicateSyntax.Literal? {
        let t = current
        let value: PredicateSyntax.Value
        switch t.kind {
        case .number(let n): value = .number(n)
        case .string(let s): value = .string(s)
        case .identifier:
            switch keyword(t) {
            case "TRUE", "YES": value = .bool(true)
            case "FALSE", "NO": value = .bool(false)
            case "NIL", "NULL": value = .null
            default: return nil
            }
        default: return nil
        }
        advance()
        return .init(value: value, column: t.column, text: t.text)
    }

    private func describe(_ t: PredicateToken) -> String {
        t.kind == .end ? "the end of the predicate" : "'\(t.text)'"
    }
}
