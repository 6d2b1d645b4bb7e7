import Foundation

/// A JSON document with ordered keys and explicit nulls, for reports whose field names and
/// order are a documented interface (`marquee inspect --json`).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }
    public func hash(into h: inout Hasher) { h.combine(serialized()) }

    public static func optional(_ v: Int?) -> JSONValue { v.map(JSONValue.int) ?? .null }
    public static func optional(_ v: Double?) -> JSONValue { v.map(JSONValue.double) ?? .null }
    public static func optional(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
    public static func optional(_ v: Bool?) -> JSONValue { v.map(JSONValue.bool) ?? .null }
    public static func strings(_ v: [String]) -> JSONValue { .array(v.map(JSONValue.string)) }

    /// Compact JSON text, or indented with `pretty`.
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
        case .int(let i): out += String(i)
        case .double(let d):
            if d.isFinite { out += d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)" } else { out += "null" }
        case .string(let s): Self.quote(s, into: &out)
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
                Self.quote(key, into: &out)
                out += pretty ? ": " : ":"
                value.write(&out, pretty: pretty, indent: indent + 1)
            }
            out += close + "}"
        }
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}

extension JSONValue: Codable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: Key.self) {
            // Keys in the order JSONDecoder reports them (sorted for a stable round trip).
            self = .object(try object.allKeys.map(\.stringValue).sorted().map { ($0, try object.decode(JSONValue.self, forKey: Key(stringValue: $0))) })
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? value.decode(Int.self) {
            self = .int(int)
        } else if let double = try? value.decode(Double.self) {
            self = .double(double)
        } else {
            self = .string(try value.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer()
            if d.isFinite { try c.encode(d) } else { try c.encodeNil() }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let fields):
            var c = encoder.container(keyedBy: Key.self)
            for (key, value) in fields { try c.encode(value, forKey: Key(stringValue: key)) }
        }
    }
}
