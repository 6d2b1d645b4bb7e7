/// One `NAME=value` pair of an attribute list, kept with the quoting it had so a playlist
/// written back says what it said (a quoted string stays quoted, an enumerated string not).
public struct Attribute: Sendable, Hashable {
    public var name: String
    public var value: AttributeValue

    public init(name: String, value: AttributeValue) {
        self.name = name
        self.value = value
    }
}

/// The value of an attribute as written: a quoted string, or anything unquoted (decimal
/// integers, floats, hexadecimal sequences, resolutions and enumerated strings).
public enum AttributeValue: Sendable, Hashable {
    case quoted(String)
    case unquoted(String)

    /// The text of the value without its quotes.
    public var text: String {
        switch self {
        case .quoted(let s), .unquoted(let s): return s
        }
    }

    /// The value as a number when it is an unquoted decimal (integer or float).
    public var number: Double? {
        if case .unquoted(let s) = self { return Double(s) }
        return nil
    }
}

extension Array where Element == Attribute {
    /// The first attribute with this name.
    public subscript(named name: String) -> AttributeValue? {
        first { $0.name == name }?.value
    }
}

/// A tag the parser does not model (or a vendor's tag), kept in order so round trips lose
/// nothing. `value` is everything after the colon, or nil when the tag had none.
public struct UnknownTag: Sendable, Hashable {
    public var name: String
    public var value: String?

    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}
