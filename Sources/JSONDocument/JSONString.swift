/// JSON string literals, spelled one way for every module that writes JSON by hand (documents,
/// log lines, push payloads): quotes, backslashes and every control character escaped, and
/// U+2028/U+2029 too, so the text is also safe inside a `<script>` or a JavaScript string.
public enum JSONString {
    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 2)
        quote(text, into: &out)
        return out
    }

    /// `text` as the inside of a JSON string literal (no quotes around it).
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        escape(text, into: &out)
        return out
    }

    /// Appends `text` as a JSON string literal to `out`.
    public static func quote(_ text: String, into out: inout String) {
        out += "\""
        escape(text, into: &out)
        out += "\""
    }

    static func escape(_ text: String, into out: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}
