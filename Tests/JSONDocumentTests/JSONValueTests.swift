import Foundation
import JSONDocument
import Testing

/// The one JSON value type: objects keep their order in output but compare regardless of it,
/// integers survive exactly, and any document decodes.
@Suite("JSON value")
struct JSONValueTests {
    let sortedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    @Test func objectsKeepTheirOrderInOutput() throws {
        let report: JSONValue = .object([("kind", .string("media")), ("segments", .int(3)), ("duration", .double(12.5))])
        #expect(report.serialized() == #"{"kind":"media","segments":3,"duration":12.5}"#)
        #expect(report.serialized(pretty: true) == "{\n  \"kind\": \"media\",\n  \"segments\": 3,\n  \"duration\": 12.5\n}")
        let literal: JSONValue = .object(["z": .null, "a": .bool(true)])
        #expect(literal.serialized() == #"{"z":null,"a":true}"#)
        #expect(String(decoding: try sortedEncoder.encode(literal), as: UTF8.self) == #"{"a":true,"z":null}"#)
    }

    @Test func equalityAndHashingIgnoreKeyOrder() {
        let a: JSONValue = .object(["percent": .int(60), "note": .string("x"), "nested": .object(["b": .null, "a": .int(1)])])
        let b: JSONValue = .object([("nested", .object([("a", .double(1)), ("b", .null)])), ("note", .string("x")), ("percent", .number(60))])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(a != .object(["percent": .int(61), "note": .string("x"), "nested": .object(["b": .null, "a": .int(1)])]))
        #expect(JSONValue.object(["a": .int(1)]) != .object(["a": .int(1), "b": .null]))
        #expect(JSONValue.array([.int(1), .int(2)]) != .array([.int(2), .int(1)]))
    }

    @Test func aRepeatedKeyKeepsItsPlaceAndItsLastValue() {
        let object = JSONObject([("a", .int(1)), ("b", .int(2)), ("a", .int(3))])
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == .int(3))
    }

    @Test func int64RoundTripsExactly() throws {
        let extremes: JSONValue = .array([.number(JSONNumber(Int64.max)), .number(JSONNumber(Int64.min)), .number(JSONNumber(Int64(1) << 53 + 1))])
        let data = try JSONEncoder().encode(extremes)
        #expect(String(decoding: data, as: UTF8.self) == "[9223372036854775807,-9223372036854775808,9007199254740993]")
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == extremes)
        guard case .array(let items) = decoded, case .number(let first) = items[0], case .number(let third) = items[2] else {
            Issue.record("not an array of numbers: \(decoded)")
            return
        }
        #expect(first.int64Value == Int64.max)
        #expect(third.int64Value == Int64(1) << 53 + 1)
        #expect(third != JSONNumber(Double(Int64(1) << 53)))
        #expect(extremes.serialized() == "[9223372036854775807,-9223372036854775808,9007199254740993]")
    }

    @Test func integralDoublesPrintWithoutAFraction() throws {
        let numbers: JSONValue = .array([.double(3), .double(-0.25), .double(1e300), .double(.infinity)])
        #expect(numbers.serialized() == "[3,-0.25,1e+300,null]")
        #expect(String(decoding: try JSONEncoder().encode(numbers), as: UTF8.self) == "[3,-0.25,1e+300,null]")
        #expect(JSONNumber(3.0) == 3)
    }

    @Test func nestedDocumentsDecode() throws {
        let text = #"{"title": "Film", "items": [1, 2.5, [true, null], {"k": "v", "e": {}}], "none": null, "list": []}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        let expected: JSONValue = .object([
            "items": .array([.int(1), .double(2.5), .array([.bool(true), .null]), .object(["k": .string("v"), "e": .object([:])])]),
            "list": .array([]), "none": .null, "title": .string("Film"),
        ])
        #expect(value == expected)
        #expect(value["title"] == .string("Film"))
        #expect(value["none"] == .null)
        #expect(value["missing"] == nil)
        #expect(value.isObject)
        #expect(try JSONDecoder().decode(JSONValue.self, from: try sortedEncoder.encode(value)) == value)
        #expect(
            String(decoding: try sortedEncoder.encode(value), as: UTF8.self)
                == #"{"items":[1,2.5,[true,null],{"e":{},"k":"v"}],"list":[],"none":null,"title":"Film"}"#)
    }
}
