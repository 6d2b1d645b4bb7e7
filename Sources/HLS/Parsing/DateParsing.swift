import Foundation

/// ISO 8601 / RFC 3339 date-times as playlists write them (`2020-01-02T21:55:40.000Z`,
/// `…+08:00`, `…+0800`), parsed without a formatter so that long playlists stay fast.
enum DateParsing {
    static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(bytes: $0) }
    }

    static func date(bytes b: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += n
            return v
        }
        func expect(_ c: Unicode.Scalar) -> Bool {
            guard i < b.count, b[i] == UInt8(ascii: c) else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ")
        else { return nil }
        i += 1
        guard let hour = digits(2), expect(":"), let minute = digits(2) else { return nil }
        var second = 0.0
        if expect(":") {
            guard let s = digits(2) else { return nil }
            second = Double(s)
            if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                i += 1
                var scale = 0.1
                var any = false
                while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                    second += Double(b[i] - 0x30) * scale
                    scale /= 10
                    i += 1
                    any = true
                }
                guard any else { return nil }
            }
        }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var offset = 0
        if i < b.count {
            switch b[i] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"): i += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let oh = digits(2) else { return nil }
                _ = expect(":")
                let om = digits(2) ?? 0
                offset = sign * (oh * 3600 + om * 60)
            default: return nil
            }
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year, month, day)
        let seconds = Double(days * 86400 + hour * 3600 + minute * 60 - offset) + second
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}
