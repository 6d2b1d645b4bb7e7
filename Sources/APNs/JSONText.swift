import Foundation
import JSONDocument

/// Writing JSON by hand where the payload embeds JSON that is already encoded (an activity's
/// content state) and must stay byte for byte as it is.
enum JSONText {
    /// `text` as the inside of a JSON string literal.
    static func escaped(_ text: String) -> String { JSONString.escaped(text) }

    static func string(_ text: String) -> String { JSONString.quoted(text) }

    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 9e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
