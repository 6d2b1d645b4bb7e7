import Foundation

/// Reads the dates request bodies carry: RFC 3339 date-times such as `2026-05-01T20:00:00Z` or
/// `2026-05-01T20:00:00.250+09:00`, with every field in its range (February 29 only in leap
/// years), 0 to 9 digits of fractions of a second, years 0001 to 9999.
/// Foundation's `.iso8601` strategy alone lets `T25:99:00` roll over into the next day; a
/// client that sends that has made a mistake it should hear about.
///
/// The rule is `pattern`, and nothing else: `openapi.json` states the same text as the
/// `pattern` of every `date-time` field (`OpenAPIDocumentTests` checks that), so what the
/// document calls a date-time is exactly what the server reads.
enum StrictDate {
    /// A full date, 0001-01-01 to 9999-12-31, every day in its month (February 29 only in
    /// leap years); a fragment of `pattern`, unanchored.
    static let fullDate =
        #"(?:(?:000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29)"#

    /// `T`, a time of day and its offset from UTC, as a date-time has after its date; a
    /// fragment of `pattern`, unanchored.
    static let timeOfDay = #"[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,9})?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"#

    /// The JSON Schema `pattern` of a date-time (written so that ECMA-262, ICU and Python
    /// regular expressions read it the same way).
    static let pattern = "^" + fullDate + timeOfDay + "$"

    /// `pattern`, compiled once (NSRegularExpression is immutable and safe to share).
    private static let expression = try! NSRegularExpression(pattern: pattern)

    /// Whether `text` is a date-time as `pattern` says: the whole text matches.
    static func matches(_ text: String) -> Bool {
        wholeMatch(expression, text)
    }

    /// Whether `expression` matches the whole of `text` (not only a prefix of it).
    static func wholeMatch(_ expression: NSRegularExpression, _ text: String) -> Bool {
        let whole = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [.anchored], range: whole)?.range == whole
    }

    /// The date `text` names, or nil when it is not a date-time as `pattern` says.
    static func parse(_ text: String) -> Date? {
        guard matches(text) else { return nil }
        // Every field is in range (the pattern says so): count days from 1970-01-01 directly.
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int { digits(bytes, range) }
        let seconds = number(11..<13) * 3600 + number(14..<16) * 60 + number(17..<19)
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            offset = (number(index + 1..<index + 3) * 60 + number(index + 4..<index + 6)) * 60
            if bytes[index] == UInt8(ascii: "-") { offset = -offset }
        }
        let total = epochDay(bytes) * 86_400 + seconds - offset
        return Date(timeIntervalSince1970: Double(total) + fraction)
    }

    /// Midnight UTC of a date `text` starts with (`yyyy-mm-dd`, already matched by `fullDate`).
    static func midnight(of text: String) -> Date {
        Date(timeIntervalSince1970: Double(epochDay(Array(text.utf8.prefix(10))) * 86_400))
    }

    /// The value of the decimal digits at `range` of `bytes` (already matched as digits).
    private static func digits(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Days from 1970-01-01 to the `yyyy-mm-dd` that `bytes` start with (already matched).
    private static func epochDay(_ bytes: [UInt8]) -> Int {
        daysFromEpoch(year: digits(bytes, 0..<4), month: digits(bytes, 5..<7), day: digits(bytes, 8..<10))
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The decoding strategy for request bodies.
    static let decodingStrategy = JSONDecoder.DateDecodingStrategy.custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text.prefix(64))\" is not a date and time such as 2026-05-01T20:00:00Z")
        }
        return date
    }
}
