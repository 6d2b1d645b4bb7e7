/// The kinds of problem the parser reports, each with its severity in either mode: rules
/// the specification states as MUST are errors when strict and repaired with a warning when
/// lenient; `fatal` problems are errors in both modes; `advisory` ones are always warnings.
enum Rule {
    case whitespace, malformedAttribute, unterminatedQuote, duplicateAttribute, trailingComma
    case invalidValue, missingRequired, specViolation
    case fatal, alwaysError, advisory

    func severity(_ mode: ParseOptions.Mode) -> Diagnostic.Severity {
        switch self {
        case .fatal, .alwaysError: return .error
        case .advisory: return .warning
        default: return mode == .strict ? .error : .warning
        }
    }
}

/// Collects diagnostics in the order they are found.
struct DiagnosticSink {
    let mode: ParseOptions.Mode
    var diagnostics: [Diagnostic] = []
    var hasFatal = false

    init(mode: ParseOptions.Mode) { self.mode = mode }

    mutating func report(_ rule: Rule, line: Int, column: Int, tag: String? = nil, attribute: String? = nil, message: String) {
        let severity = rule.severity(mode)
        if rule == .fatal { hasFatal = true }
        diagnostics.append(Diagnostic(severity, line: line, column: column, tag: tag, attribute: attribute, message: message))
    }

    var isStrict: Bool { mode == .strict }
}
