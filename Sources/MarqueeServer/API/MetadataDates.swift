import Foundation
import HTTPTypes

/// The dates a metadata edit (`PUT /api/assets/{id}/metadata`) carries, read by the rules
/// `openapi.json` states as those fields' patterns (`DocumentedRulesTests` compares them), so
/// what the document calls a valid date is exactly what the server reads. An empty text
/// clears the field; nothing is trimmed (" 2024" is refused, not guessed at).
enum MetadataDates {
    /// `releaseDate`: a year (`2024`), a date (`2024-05-01`) or a date-time
    /// (`2024-05-01T20:00:00Z`), or empty.
    static let releasePattern = "^(?:[0-9]{4}|" + StrictDate.fullDate + "(?:" + StrictDate.timeOfDay + ")?)?$"
    /// `liveStartDate` and `liveEndDate`: a date (midnight UTC) or a date-time, or empty.
    static let livePattern = "^(?:" + StrictDate.fullDate + "(?:" + StrictDate.timeOfDay + ")?)?$"

    private static let release = try! NSRegularExpression(pattern: releasePattern)
    private static let live = try! NSRegularExpression(pattern: livePattern)

    /// The release date to store (as given), nil to clear, or a 400 naming the field.
    static func releaseDate(_ text: String?) throws -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard StrictDate.wholeMatch(release, text) else {
            throw APIError(.badRequest, "\"releaseDate\" is not a date (use 2024-05-01, a year such as 2024, or 2024-05-01T20:00:00Z): \(text.prefix(64))")
        }
        return text
    }

    /// The instant a live date names, nil to clear, or a 400 naming `field`.
    static func liveDate(_ text: String?, field: String) throws -> Date? {
        guard let text, !text.isEmpty else { return nil }
        guard StrictDate.wholeMatch(live, text) else {
            throw APIError(.badRequest, "\"\(field)\" is not a date (use 2024-05-01 or 2024-05-01T20:00:00Z): \(text.prefix(64))")
        }
        return StrictDate.parse(text) ?? StrictDate.midnight(of: text)
    }

}
