/// A JSON object: its fields in the order they were given, each key once.
///
/// Written with a dictionary literal (`["percent": .int(60)]`, source order kept) or a list of
/// pairs (`[("kind", .string("media")), ("segments", .int(3))]`). Equality and hashing ignore the
/// order; output keeps it. Giving a key again replaces its value where it first stood. Lookups
/// are linear, which suits the small objects JSON documents are made of.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    public typealias Key = String
    public typealias Value = JSONValue
    public typealias Element = (key: String, value: JSONValue)

    private var fields: [Element] = []

    public init() {}

    /// The fields in `pairs`' order; a repeated key keeps its first place and its last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        for (key, value) in pairs { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
    public init(arrayLiteral elements: (String, JSONValue)...) { self.init(elements) }

    public var startIndex: Int { fields.startIndex }
    public var endIndex: Int { fields.endIndex }
    public subscript(position: Int) -> Element { fields[position] }

    public var keys: [String] { fields.map(\.key) }

    /// The value of `key`; setting `nil` removes the field.
    public subscript(key: String) -> JSONValue? {
        get { fields.first { $0.key == key }?.value }
        set {
            let index = fields.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): fields[index].value = value
            case (let index?, nil): fields.remove(at: index)
            case (nil, let value?): fields.append((key, value))
            case (nil, nil): break
            }
        }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.count == b.count && a.allSatisfy { b[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for field in fields.sorted(by: { $0.key < $1.key }) {
            hasher.combine(field.key)
            hasher.combine(field.value)
        }
    }
}

extension JSONObject: Codable {
    struct FieldKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads the fields with their keys sorted (decoders do not report a document's order).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldKey.self)
        for key in container.allKeys.map(\.stringValue).sorted() {
            self[key] = try container.decode(JSONValue.self, forKey: FieldKey(stringValue: key))
        }
    }

    /// Writes the fields in order (an encoder with `.sortedKeys` sorts them).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        for (key, value) in fields { try container.encode(value, forKey: FieldKey(stringValue: key)) }
    }
}
