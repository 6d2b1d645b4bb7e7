import Foundation
import HTTPTypes
import JSONDocument
import LiveActivities
import Testing

@testable import MarqueeServer

/// Custom activities' attributes and content states are flat JSON objects (openapi.json's
/// `ActivityFields`): what the document allows is accepted, the rest refused with a 4xx
/// that names the field.
@Suite("Activity fields shape")
struct ActivityFieldsShapeTests {
    func value(_ json: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }

    func status(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch let error as APIError {
            return Int(error.status.code)
        } catch {
            return -1
        }
    }

    @Test func flatObjectsAreAcceptedAndNestedOnesRefused() throws {
        let flat = try value(#"{"eta": 12, "title": "Pizza", "late": false, "note": null, "ratio": 0.5}"#)
        #expect(status { try ActivityFieldsShape.check(flat, field: "contentState") } == nil)
        #expect(status { try ActivityFieldsShape.checkAttributes(flat) } == nil)
        #expect(status { try ActivityFieldsShape.check(try value(#"{"a": {"b": 1}}"#), field: "contentState") } == 400)
        #expect(status { try ActivityFieldsShape.check(try value(#"{"a": [1, 2]}"#), field: "contentState") } == 400)
        #expect(status { try ActivityFieldsShape.check(try value(#"[1]"#), field: "contentState") } == 400)
        #expect(status { try ActivityFieldsShape.check(try value(#"{"": 1}"#), field: "contentState") } == 400)
        let longName = String(repeating: "n", count: 65)
        #expect(status { try ActivityFieldsShape.check(try value(#"{"\#(longName)": 1}"#), field: "contentState") } == 400)
        let many = (0...32).map { "\"f\($0)\": \($0)" }.joined(separator: ",")
        #expect(status { try ActivityFieldsShape.check(try value("{\(many)}"), field: "contentState") } == 400)
        let fewer = (0..<32).map { "\"f\($0)\": \($0)" }.joined(separator: ",")
        #expect(status { try ActivityFieldsShape.check(try value("{\(fewer)}"), field: "contentState") } == nil)
        let large = try value(#"{"text": "\#(String(repeating: "x", count: 5000))"}"#)
        #expect(status { try ActivityFieldsShape.checkAttributes(large) } == 413)
    }
}
