import JSONDocument
import Logging

/// JSON spelling for log lines: strings quoted with every control character escaped, and
/// metadata values as strings, arrays and objects.
enum JSONText {
    static func quoted(_ text: String) -> String { JSONString.quoted(text) }

    static func value(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .stringConvertible(let convertible): quoted(convertible.description)
        case .array(let items): "[" + items.map { Self.value($0) }.joined(separator: ",") + "]"
        case .dictionary(let fields):
            "{" + fields.keys.sorted().map { "\(quoted($0)):\(Self.value(fields[$0]!))" }.joined(separator: ",") + "}"
        }
    }
}
