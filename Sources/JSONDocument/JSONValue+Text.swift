extension JSONValue {
    /// JSON text with the objects' keys in their order: compact, or indented by two spaces
    /// with `pretty` (the form of `marquee inspect --json`).
    public func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(&out, pretty: pretty, indent: 0)
        return out
    }

    private func write(_ out: inout String, pretty: Bool, indent: Int) {
        let newline = pretty ? "\n" + String(repeating: "  ", count: indent + 1) : ""
        let close = pretty ? "\n" + String(repeating: "  ", count: indent) : ""
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n.description
        case .string(let s): JSONString.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                out += newline
                item.write(&out, pretty: pretty, indent: indent + 1)
            }
            out += close + "]"
        case .object(let fields):
            if fields.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += "," }
                out += newline
                JSONString.quote(key, into: &out)
                out += pretty ? ": " : ":"
                value.write(&out, pretty: pretty, indent: indent + 1)
            }
            out += close + "}"
        }
    }
}
