import HTTPTypes
import JSONDocument
import LiveActivities

/// What the API accepts as a custom activity's attributes or content state — the
/// `ActivityFields` schema of openapi.json: a flat JSON object of at most `mostFields` fields,
/// each named by 1 to `longestName` characters and holding a string, a number, a boolean or
/// null, at most `largestJSON` bytes of JSON in all (ActivityKit's limit for a content state,
/// which the activity center enforces; attributes are held to the same here). Widgets show
/// such fields as they are; a nested object or list is refused with a 400 that names the
/// field, an oversized object with a 413. (Name lengths count Unicode scalars, as JSON Schema
/// does.) The built-in types' own models are flat too.
enum ActivityFieldsShape {
    static let mostFields = 32
    static let longestName = 64
    static let largestJSON = ActivityLifecycle.contentStateLimit

    /// Throws a 400 naming `field` (e.g. `contentState`) when `value` is not of that shape.
    static func check(_ value: JSONValue, field: String) throws {
        guard case .object(let fields) = value else { throw APIError(.badRequest, "\(field) must be a JSON object") }
        guard fields.count <= mostFields else {
            throw APIError(.badRequest, "\(field) has \(fields.count) fields; at most \(mostFields) are accepted")
        }
        for (name, fieldValue) in fields.sorted(by: { $0.key < $1.key }) {
            guard (1...longestName).contains(name.unicodeScalars.count) else {
                throw APIError(.badRequest, "Field names in \(field) are 1 to \(longestName) characters")
            }
            switch fieldValue {
            case .null, .bool, .number, .string:
                continue
            case .array, .object:
                throw APIError(
                    .badRequest, "\(field).\(name) must be a string, number, boolean or null (no nested objects or lists)")
            }
        }
    }

    /// `check`, and a 413 when the attributes are larger than `largestJSON` bytes of JSON.
    static func checkAttributes(_ value: JSONValue) throws {
        try check(value, field: "attributes")
        let bytes = (try? value.data().count) ?? Int.max
        guard bytes <= largestJSON else {
            throw APIError(
                .contentTooLarge, "The attributes are \(bytes) bytes of JSON; an activity's attributes may be at most \(largestJSON) bytes")
        }
    }
}
