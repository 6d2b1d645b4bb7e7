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
    /// Warnings past `warningLimit` are counted, not kept: a garbage input must not grow a
    /// diagnostic list without bound.
    var suppressedWarnings = 0
    static let warningLimit = 1000
    var keptWarnings = 0

    init(mode: ParseOptions.Mode) { self.mode = mode }

    mutating func report(_ rule: Rule, line: Int, column: Int, tag: String? = nil, attribute: String? = nil, message: String) {
        let severity = rule.severity(mode)
        if rule == .fatal { hasFatal = true }
        if severity == .warning {
            guard keptWarnings < Self.warningLimit else {
                suppressedWarnings += 1
                return
            }
            keptWarnings += 1
        }
        diagnostics.append(Diagnostic(severity, line: line, column: column, tag: tag, attribute: attribute, message: message))
    }

    var isStrict: Bool { mode == .strict }

    /// Says how many warnings were not kept, once parsing is over.
    mutating func closeWarnings(line: Int) {
        guard suppressedWarnings > 0 else { return }
        diagnostics.append(
            Diagnostic(
                .warning, line: line, column: 1, tag: nil, attribute: nil,
                message: "\(suppressedWarnings) more warnings not listed (only the first \(Self.warningLimit) are kept)"))
        suppressedWarnings = 0
    }
}
