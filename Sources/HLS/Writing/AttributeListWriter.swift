/// Builds one attribute list in specification syntax.
struct AttributeListWriter {
    private(set) var text = ""

    private mutating func add(_ name: String, _ value: String) {
        if !text.isEmpty { text += "," }
        text += name
        text += "="
        text += value
    }

    mutating func quoted(_ name: String, _ value: String?) {
        guard let value else { return }
        add(name, "\"\(value)\"")
    }

    /// An unquoted value; one that could not be read back unquoted (a leniently accepted
    /// quoted enumerated string with a comma, space or control character) is quoted.
    mutating func enumerated(_ name: String, _ value: String?) {
        guard let value else { return }
        if value.isEmpty || value.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 <= 0x20 || $0 == 0x7F }) {
            quoted(name, value)
        } else {
            add(name, value)
        }
    }

    mutating func integer<I: BinaryInteger>(_ name: String, _ value: I?) {
        guard let value else { return }
        add(name, String(value))
    }

    mutating func float(_ name: String, _ value: Double?) {
        guard let value else { return }
        add(name, PlaylistWriter.decimal(value))
    }

    mutating func yes(_ name: String, _ flag: Bool) {
        if flag { add(name, "YES") }
    }

    mutating func yesNo(_ name: String, _ flag: Bool?) {
        guard let flag else { return }
        add(name, flag ? "YES" : "NO")
    }

    mutating func list(_ name: String, _ values: [String]) {
        if !values.isEmpty { quoted(name, values.joined(separator: ",")) }
    }

    mutating func hex(_ name: String, _ bytes: [UInt8]?) {
        guard let bytes else { return }
        add(
            name,
            "0x"
                + bytes.map { b in
                    let s = String(b, radix: 16, uppercase: true)
                    return s.count == 1 ? "0" + s : s
                }.joined())
    }

    mutating func attributes(_ list: [Attribute]) {
        for a in list {
            switch a.value {
            case .quoted(let s): quoted(a.name, s)
            case .unquoted(let s): add(a.name, s)  // the parser only keeps values that can stand unquoted
            }
        }
    }
}
