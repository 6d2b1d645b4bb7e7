/// Why a variant predicate format string was rejected, and where: `column` is 1-based and
/// counts characters of the format string, so a caller can draw a caret under it.
public struct PredicateFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case unexpectedCharacter, unterminatedString, invalidNumber, unexpectedToken, unexpectedEnd
        case unknownKeyPath, typeMismatch, unsupportedOperator, invalidValue
    }

    public var kind: Kind
    public var column: Int
    public var message: String

    public init(_ kind: Kind, column: Int, _ message: String) {
        self.kind = kind
        self.column = column
        self.message = message
    }

    public var description: String { "column \(column): \(message)" }

    /// The format string with a caret line under the offending column.
    public func caret(in format: String) -> String {
        format + "\n" + String(repeating: " ", count: max(0, column - 1)) + "^ " + message
    }
}
