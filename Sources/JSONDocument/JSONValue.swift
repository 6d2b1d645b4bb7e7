/// Any JSON value, the one JSON document type that Marquee's modules share: `marquee inspect
/// --json` reports and CLI events (HLS, marquee), offline bundles' configuration (Downloads) and
/// the attributes and content states of activities whose type Marquee does not know
/// (LiveActivities, the server's activity routes).
///
/// An object keeps its keys in the order they were given, so a report's field order is an
/// interface, yet compares (and hashes) equal to the same fields in another order, so states
/// read back from a store compare equal to the ones written. A number keeps an integer exactly
/// (64 bits) and compares by value with a `Double`, so `1` and `1.0` are the same number.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// An integer number.
    public static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
    /// A floating-point number (written without a fraction when it has none).
    public static func double(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    public static func optional(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    public static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    public static func optional(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }
    public static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    /// The value of `key` when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    public var isObject: Bool { if case .object = self { true } else { false } }
}
