import Foundation

/// Writing JSON by hand where the payload embeds JSON that is already encoded (an activity's
/// content state) and must stay byte for byte as it is.
enum JSONText {
    /// `text` as the inside of a JSON string literal.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func string(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 9e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
