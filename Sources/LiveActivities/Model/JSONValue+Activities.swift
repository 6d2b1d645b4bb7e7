public import Foundation
public import JSONDocument

/// The attributes and content state of an activity whose type Marquee does not know (a custom
/// type sent through the API) are `JSONValue`s, kept exactly as given; these read and write them.
extension JSONValue {
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
