/// A token of the predicate language with the 1-based column where it starts.
struct PredicateToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case identifier(String)  // a key path component or a keyword (keywords are recognised by the parser)
        case string(String)
        case number(Double)
        case symbol(String)  // == != < <= > >= = <> && || ! ( ) { } , . [c]
        case variable(String)  // $r
        case end
    }
    var kind: Kind
    var column: Int
    /// The source text of the token, for messages.
    var text: String
}

/// Splits a predicate format string into tokens: identifiers, quoted strings ('…' or "…",
/// with backslash escapes), numbers (`5000000`, `23.976`, `1e6`, `-1`), operators and
/// punctuation, and comparison options such as `[c]`, `[d]`, `[cd]`.
struct PredicateLexer {
    private let chars: [Character]
    private var index = 0

    init(_ format: String) { chars = Array(format) }

    static func tokens(_ format: String) throws(PredicateFormatError) -> [PredicateToken] {
        var lexer = PredicateLexer(format)
        var result: [PredicateToken] = []
        while true {
            let t = try lexer.next()
            result.append(t)
            if t.kind == .end { return result }
        }
    }

    private var column: Int { index + 1 }
    private func peek(_ offset: Int = 0) -> Character? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    mutating func next() throws(PredicateFormatError) -> PredicateToken {
        while let c = peek(), c.isWhitespace { index += 1 }
        let start = column
        guard let c = peek() else { return PredicateToken(kind: .end, column: start, text: "end of predicate") }

        if c == "\"" || c == "'" { return try string(quote: c) }
        if c.isNumber && c.isASCII || (c == "." && peek(1)?.isASCIIDigit == true)
            || (c == "-" && (peek(1)?.isASCIIDigit == true || peek(1) == "."))
        {
            return try number()
        }
        if c.isLetter || c == "_" || c == "@" && peek(1)?.isLetter == true {
            var text = String(c)
            index += 1
            while let d = peek(), d.isLetter || d.isNumber || d == "_" {
                text.append(d)
                index += 1
            }
            return PredicateToken(kind: .identifier(text), column: start, text: text)
        }
        if c == "$" {
            var name = ""
            index += 1
            while let d = peek(), d.isLetter || d.isNumber || d == "_" {
                name.append(d)
                index += 1
            }
            guard !name.isEmpty else {
                throw PredicateFormatError(.unexpectedCharacter, column: start, "expected a variable name after '$'")
            }
            return PredicateToken(kind: .variable(name), column: start, text: "$" + name)
        }
        if c == "[" {
            // comparison options: [c], [d], [cd], [n]
            var j = index + 1
            var text = ""
            while j < chars.count, chars[j].isLetter {
                text.append(chars[j])
                j += 1
            }
            guard j < chars.count, chars[j] == "]", !text.isEmpty else {
                throw PredicateFormatError(
                    .unexpectedCharacter, column: start,
                    "unexpected '['; expected a comparison option such as [c], [d] or [cd] after an operator")
            }
            index = j + 1
            return PredicateToken(kind: .symbol("[" + text.lowercased() + "]"), column: start, text: "[\(text)]")
        }
        let two = peek(1).map { String(c) + String($0) }
        if let two, ["==", "!=", "<=", ">=", "=<", "=>", "<>", "&&", "||"].contains(two) {
            index += 2
            return PredicateToken(kind: .symbol(two), column: start, text: two)
        }
        if "=<>!(){},.".contains(c) {
            index += 1
            return PredicateToken(kind: .symbol(String(c)), column: start, text: String(c))
        }
        if c == "&" || c == "|" {
            throw PredicateFormatError(.unexpectedCharacter, column: start, "unexpected '\(c)'; expected '\(c)\(c)'")
        }
        throw PredicateFormatError(
            .unexpectedCharacter, column: start,
            "unexpected character '\(c)'; expected a key path, a literal, an operator or a parenthesis")
    }

    private mutating func string(quote: Character) throws(PredicateFormatError) -> PredicateToken {
        let start = column
        index += 1
        var value = ""
        while let c = peek() {
            index += 1
            if c == quote {
                return PredicateToken(kind: .string(value), column: start, text: String(quote) + value + String(quote))
            }
            if c == "\\" {
                guard let e = peek() else { break }
                index += 1
                switch e {
                case "n": value.append("\n")
                case "t": value.append("\t")
                default: value.append(e)
                }
            } else {
                value.append(c)
            }
        }
        throw PredicateFormatError(.unterminatedString, column: start, "unterminated string; expected a closing \(quote)")
    }

    private mutating func number() throws(PredicateFormatError) -> PredicateToken {
        let start = column
        var text = ""
        if peek() == "-" {
            text.append("-")
            index += 1
        }
        while let c = peek(), c.isASCIIDigit || c == "." || c == "_" {
            if c != "_" { text.append(c) }
            index += 1
        }
        if let e = peek(), e == "e" || e == "E",
            let n = peek(1), n.isASCIIDigit || ((n == "-" || n == "+") && peek(2)?.isASCIIDigit == true)
        {
            text.append("e")
            index += 1
            if n == "-" || n == "+" {
                text.append(n)
                index += 1
            }
            while let c = peek(), c.isASCIIDigit {
                text.append(c)
                index += 1
            }
        }
        if let c = peek(), c.isLetter {
            throw PredicateFormatError(.invalidNumber, column: start, "invalid number '\(text)\(c)'; expected digits")
        }
        guard let value = Double(text) else {
            throw PredicateFormatError(.invalidNumber, column: start, "invalid number '\(text)'")
        }
        return PredicateToken(kind: .number(value), column: start, text: text)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
