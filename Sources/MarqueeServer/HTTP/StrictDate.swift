import Foundation

/// Reads the dates request bodies carry: RFC 3339 / ISO 8601 date-times such as
/// `2026-05-01T20:00:00Z` or `2026-05-01T20:00:00.250+09:00`, with every field in its range.
/// Foundation's `.iso8601` strategy alone lets `T25:99:00` roll over into the next day; a
/// client that sends that has made a mistake it should hear about.
enum StrictDate {
    /// The date `text` names, or nil when it is not a date-time with fields in range.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        // yyyy-mm-ddThh:mm:ss[.fraction](Z|±hh:mm)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func at(_ index: Int, _ character: Character) -> Bool { index < bytes.count && bytes[index] == character.asciiValue! }
        guard let year = number(0..<4), at(4, "-"), let month = number(5..<7), at(7, "-"), let day = number(8..<10),
            at(10, "T") || at(10, "t"), let hour = number(11..<13), at(13, ":"), let minute = number(14..<16), at(16, ":"),
            let second = number(17..<19)
        else { return nil }
        guard year >= 1, (1...12).contains(month), (1...Self.days(in: month, of: year)).contains(day), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        var index = 19
        if at(index, ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > start else { return nil }
        }
        if at(index, "Z") || at(index, "z") {
            guard index + 1 == bytes.count else { return nil }
        } else {
            guard at(index, "+") || at(index, "-"), index + 6 == bytes.count, let offsetHours = number(index + 1..<index + 3), at(index + 3, ":"),
                let offsetMinutes = number(index + 4..<index + 6), offsetHours < 24, offsetMinutes < 60
            else { return nil }
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func days(in month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
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
