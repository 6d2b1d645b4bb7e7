import Foundation

/// The subtitle file formats the library takes, known from the file's content (never from its
/// name alone: a `.srt` that holds WebVTT is read as WebVTT).
public enum SubtitleFormat: String, Sendable, Codable, CaseIterable {
    case subRip = "srt"
    case webVTT = "vtt"
    case ass
    case ssa

    /// The format `text` is written in, or `nil` when it is none of them.
    public static func detect(_ text: String) -> SubtitleFormat? {
        let lines = SubtitleText.lines(text)
        guard let first = lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else { return nil }
        let head = lines[first].trimmingCharacters(in: .whitespaces)
        if head == "WEBVTT" || head.hasPrefix("WEBVTT ") || head.hasPrefix("WEBVTT\t") { return .webVTT }
        let sections = Set(lines.prefix(2000).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { $0.hasPrefix("[") })
        if head.lowercased() == "[script info]" || sections.contains("[events]") {
            if sections.contains("[v4+ styles]") { return .ass }
            if sections.contains("[v4 styles]") { return .ssa }
            let scriptType = lines.prefix(200).first { $0.lowercased().hasPrefix("scripttype:") }?.lowercased()
            return scriptType?.contains("v4.00+") == false ? .ssa : .ass
        }
        // SubRip: a timing line (`00:00:01,000 --> 00:00:02,000`) among the first lines, or an
        // arrow after a cue number (a file whose times are broken is still SubRip, and is told so).
        for line in lines[first...].prefix(4) where line.contains("-->") {
            let numbered = !head.isEmpty && head.count <= 9 && head.allSatisfy { $0.isASCII && $0.isNumber }
            return SubtitleTime.timing(line) != nil || numbered ? .subRip : nil
        }
        return nil
    }
}

/// Text helpers shared by the subtitle readers.
enum SubtitleText {
    /// The file's bytes as text: UTF-8 (a BOM dropped), UTF-16 with a BOM, else Latin-1 (old
    /// SubRip files); `nil` for binary data (NUL bytes in 8-bit text).
    static func decode(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) { return String(data: data.dropFirst(2), encoding: .utf16LittleEndian) }
        if bytes.starts(with: [0xFE, 0xFF]) { return String(data: data.dropFirst(2), encoding: .utf16BigEndian) }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if body.contains(0) { return nil }
        if let text = String(validating: body, as: UTF8.self) { return text }
        return String(data: Data(body), encoding: .isoLatin1)
    }

    /// The lines of `text`, whatever its line endings (LF, CRLF or CR).
    static func lines(_ text: String) -> [String] {
        var text = text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// `text` with `&`, `<` and `>` escaped for a WebVTT cue.
    static func escaped(_ text: some StringProtocol) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}

/// Subtitle timestamps in milliseconds, read leniently and bounded.
enum SubtitleTime {
    /// The largest time accepted: 99 hours (more is a broken file, not a long film).
    static let maximum: Int64 = 99 * 3_600_000

    /// The start and end of a timing line (`start --> end [settings]`), or `nil` when either
    /// does not read or the end is not after the start.
    static func timing(_ line: String) -> (start: Int64, end: Int64, rest: String)? {
        guard let arrow = line.range(of: "-->") else { return nil }
        let startText = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
        let after = line[arrow.upperBound...].trimmingCharacters(in: .whitespaces)
        let endText = after.prefix { !$0.isWhitespace }
        let rest = after.dropFirst(endText.count).trimmingCharacters(in: .whitespaces)
        guard let start = parse(startText), let end = parse(String(endText)), end > start else { return nil }
        return (start, end, rest)
    }

    /// `[[h]h:]mm:ss[,.]fff` (SubRip, WebVTT) or `h:mm:ss.cc` (ASS) in milliseconds; `nil`
    /// when it does not read or is past `maximum`.
    static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        let secondsPart = parts[parts.count - 1]
        let fraction = secondsPart.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == "." })
        guard (1...2).contains(fraction.count) else { return nil }
        guard let seconds = number(fraction[0], maxDigits: 2), seconds < 60,
            let minutes = number(parts[parts.count - 2], maxDigits: 2), minutes < 60
        else { return nil }
        let hours = parts.count == 3 ? number(parts[0], maxDigits: 2) : 0
        guard let hours else { return nil }
        var millis: Int64 = 0
        if fraction.count == 2 {
            let digits = fraction[1]
            guard (1...3).contains(digits.count), let value = number(digits, maxDigits: 3) else { return nil }
            millis = value * [100, 10, 1][digits.count - 1]
        }
        let total = ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
        return total <= maximum ? total : nil
    }

    /// A run of 1…`maxDigits` ASCII digits as a number.
    private static func number(_ text: Substring, maxDigits: Int) -> Int64? {
        guard !text.isEmpty, text.count <= maxDigits, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }

    /// `hh:mm:ss.fff`, as WebVTT writes it.
    static func webVTT(_ milliseconds: Int64) -> String {
        let ms = max(0, milliseconds)
        let hours = ms / 3_600_000
        let minutes = ms / 60_000 % 60
        let seconds = ms / 1000 % 60
        return String(format: "%02lld:%02lld:%02lld.%03lld", hours, minutes, seconds, ms % 1000)
    }
}
