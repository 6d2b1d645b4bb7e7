/// The specification's number grammars: decimal-integer, decimal-floating-point,
/// decimal-resolution and byte ranges, without allocating.
enum DecimalParsing {
    /// A decimal-integer in 0 … 2^64-1. Overflow is always an error (never wraps); a
    /// fraction is an error when strict and truncated with a warning when lenient.
    static func integer(_ text: String, quoted: Bool = false, line: Int, column: Int, tag: String, attribute: String?,
                        sink: inout DiagnosticSink) -> UInt64? {
        if quoted {
            sink.report(.invalidValue, line: line, column: column, tag: tag, attribute: attribute, message: "expected a decimal-integer without quotes")
        }
        var value: UInt64 = 0
        var digits = 0
        var utf8 = text.utf8[...]
        while let b = utf8.first, b >= 0x30, b <= 0x39 {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(b - 0x30))
            if o1 || o2 {
                sink.report(.fatal, line: line, column: column, tag: tag, attribute: attribute,
                            message: "decimal-integer \(text) is larger than 2^64-1")
                return nil
            }
            value = a
            digits += 1
            utf8.removeFirst()
        }
        if digits == 0 {
            sink.report(.invalidValue, line: line, column: column, tag: tag, attribute: attribute,
                        message: "expected a decimal-integer, found '\(text)'")
            return nil
        }
        if !utf8.isEmpty {
            if utf8.first == UInt8(ascii: "."), utf8.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                sink.report(.invalidValue, line: line, column: column, tag: tag, attribute: attribute,
                            message: "expected a decimal-integer, found the float \(text)\(sink.isStrict ? "" : " (truncated)")")
                return sink.isStrict ? nil : value
            }
            sink.report(.invalidValue, line: line, column: column, tag: tag, attribute: attribute,
                        message: "expected a decimal-integer, found '\(text)'")
            return nil
        }
        return value
    }

    /// A decimal-floating-point; with `signed`, a leading '-' is allowed.
    static func float(_ text: String, signed: Bool = false) -> Double? {
        var utf8 = text.utf8[...]
        if signed, utf8.first == UInt8(ascii: "-") { utf8.removeFirst() }
        guard let first = utf8.first, first >= 0x30 && first <= 0x39 || first == UInt8(ascii: ".") else { return nil }
        guard utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }),
              utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count <= 1 else { return nil }
        guard let d = Double(text), d.isFinite else { return nil }
        return d
    }

    /// `WIDTH<separator>HEIGHT`, both decimal-integers.
    static func resolution(_ text: String, separator: UInt8) -> Resolution? {
        let parts = text.utf8.split(separator: separator, maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let w = plainInt(parts[0]), let h = plainInt(parts[1]) else { return nil }
        return Resolution(width: w, height: h)
    }

    /// `length[@offset]`.
    static func byteRange(_ text: String) -> ByteRange? {
        let parts = text.utf8.split(separator: UInt8(ascii: "@"), maxSplits: 1, omittingEmptySubsequences: false)
        guard let length = plainInt(parts[0]) else { return nil }
        if parts.count == 2 {
            guard let offset = plainInt(parts[1]) else { return nil }
            return ByteRange(length: UInt64(length), offset: UInt64(offset))
        }
        return ByteRange(length: UInt64(length), offset: nil)
    }

    static func plainInt(_ bytes: String.UTF8View.SubSequence) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var v = 0
        for b in bytes {
            guard b >= 0x30, b <= 0x39 else { return nil }
            v = v * 10 + Int(b - 0x30)
        }
        return v
    }

    /// A hexadecimal-sequence `0x…` as bytes (left-padded to whole bytes).
    static func hexBytes(_ text: String) -> [UInt8]? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        var digits = Array(text.utf8.dropFirst(2))
        guard !digits.isEmpty else { return nil }
        if digits.count % 2 == 1 { digits.insert(UInt8(ascii: "0"), at: 0) }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let hi = nibble(digits[i]), let lo = nibble(digits[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }
}
