public import Foundation

/// Reads the dates people and tags write for releases and live recordings: full ISO 8601
/// date-times (with or without fractional seconds or a zone) and plain dates.
public enum LiveDates {
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let formatter = ISO8601DateFormatter()
        let options: [ISO8601DateFormatter.Options] = [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime],
            [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate],
            [.withFullDate],
        ]
        for option in options {
            formatter.formatOptions = option
            formatter.timeZone = .gmt
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}
