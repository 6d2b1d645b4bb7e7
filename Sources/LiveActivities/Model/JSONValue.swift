public import Foundation

/// Any JSON value: the attributes and content state of an activity whose type Marquee does
/// not know (a custom type sent through the API), kept exactly as given.
public enum JSONValue: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 9e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value of a typed model, as JSON (dates as epoch seconds, like ActivityKit's pushes).
    public init(encoding value: some Encodable) throws {
        let data = try JSONValue.encoder.encode(value)
        self = try JSONValue.decoder.decode(JSONValue.self, from: data)
    }

    /// Decodes a typed model from this value.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONValue.decoder.decode(T.self, from: try data())
    }

    /// Compact UTF-8 JSON with sorted keys (so equal values give equal bytes).
    public func data() throws -> Data { try JSONValue.encoder.encode(self) }

    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    public var isObject: Bool { if case .object = self { true } else { false } }

    /// The one JSON form activities are written in (sorted keys, dates as seconds), by every
    /// store: SQLite's and PostgreSQL's rows read the same.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    /// Reads what `encoder` wrote.
    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}
