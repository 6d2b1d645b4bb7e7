import Logging

/// JSON spelling for log lines: strings quoted with every control character escaped, and
/// metadata values as strings, arrays and objects.
enum JSONText {
    static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

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
