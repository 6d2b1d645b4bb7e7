/// The specification's number grammars: decimal-integer, decimal-floating-point,
/// decimal-resolution and byte ranges, without allocating.
enum DecimalParsing {
    /// A decimal-integer in 0 … 2^64-1. Overflow is always an error (never wraps); a
    /// fraction is an error when strict and truncated with a warning when lenient.
    static func integer(
        _ text: String, quoted: Bool = false, line: Int, column: Int, tag: String, attribute: String?,
        sink: inout DiagnosticSink
    ) -> UInt64? {
        if quoted {
            sink.report(.invalidValue, line: line, column: column, tag: tag, attribute: attribute, message: "expected a decimal-integer without quotes")
        }
        // Digits, then what follows them: nothing (fine), ".digits" (a float) or anything else.
        enum Scan { case value(UInt64), overflow, noDigits, float(UInt64), other }
        var copy = text
        let scan = copy.withUTF8 { b -> Scan in
            var value: UInt64 = 0
            var i = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(UInt64(b[i] - 0x30))
                if o1 || o2 { return .overflow }
                value = a
                i += 1
            }
            if i == 0 { return .noDigits }
            if i == b.count { return .value(value) }
            if b[i] == UInt8(ascii: "."), b[(i + 1)...].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return .float(value) }
            return .other
        }
        switch scan {
        case .value(let value):
            return value
        case .overflow:
            sink.report(
                .fatal, line: line, column: column, tag: tag, attribute: attribute,
                message: "decimal-integer \(text) is larger than 2^64-1")
            return nil
        case .float(let value):
            sink.report(
                .invalidValue, line: line, column: column, tag: tag, attribute: attribute,
                message: "expected a decimal-integer, found the float \(text)\(sink.isStrict ? "" : " (truncated)")")
            return sink.isStrict ? nil : value
        case .noDigits, .other:
            sink.report(
                .invalidValue, line: line, column: column, tag: tag, attribute: attribute,
                message: "expected a decimal-integer, found '\(text)'")
            return nil
        }
    }

    /// A decimal-floating-point; with `signed`, a leading '-' is allowed.
    static func float(_ text: String, signed: Bool = false) -> Double? {
        var copy = text
        let wellFormed = copy.withUTF8 { b -> Bool in
            var i = 0
            if signed, i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < b.count else { return false }
            var dots = 0
            while i < b.count {
                if b[i] == UInt8(ascii: ".") { dots += 1 } else if b[i] < 0x30 || b[i] > 0x39 { return false }
                i += 1
            }
            return dots <= 1
        }
        guard wellFormed, let d = Double(text), d.isFinite else { return nil }
        return d
    }

    /// `WIDTH<separator>HEIGHT`, both decimal-integers.
    static func resolution(_ text: String, separator: UInt8) -> Resolution? {
        var copy = text
        return copy.withUTF8 { b -> Resolution? in
            guard let x = b.firstIndex(of: separator), let w = plainInt(b[..<x]), let h = plainInt(b[(x + 1)...]) else { return nil }
            return Resolution(width: w, height: h)
        }
    }

    /// `length[@offset]`.
    static func byteRange(_ text: String) -> ByteRange? {
        var copy = text
        return copy.withUTF8 { b -> ByteRange? in
            guard let at = b.firstIndex(of: UInt8(ascii: "@")) else {
                return plainInt(b[...]).map { ByteRange(length: UInt64($0), offset: nil) }
            }
            guard let length = plainInt(b[..<at]), let offset = plainInt(b[(at + 1)...]) else { return nil }
            return ByteRange(length: UInt64(length), offset: UInt64(offset))
        }
    }

    static func plainInt(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
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
