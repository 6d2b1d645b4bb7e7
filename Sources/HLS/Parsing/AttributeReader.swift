import Foundation

/// Reads typed values out of a parsed attribute list, reporting wrong types with the tag,
/// attribute and column, and remembering which attributes were consumed so that the rest are
/// kept as `otherAttributes`.
struct AttributeReader {
    let tag: String
    let line: Int
    var parsed: AttributeListParser.Parsed
    /// Which attributes a typed accessor has read: a bit per index (a set past 64).
    private var consumed: UInt64 = 0
    private var consumedBeyond64 = Set<Int>()

    init(tag: String, line: Int, parsed: AttributeListParser.Parsed) {
        self.tag = tag
        self.line = line
        self.parsed = parsed
    }

    func column(of name: String) -> Int {
        guard let i = parsed.attributes.firstIndex(where: { $0.name == name }) else { return 1 }
        return parsed.columns[i]
    }

    mutating func raw(_ name: String) -> AttributeValue? {
        // Most names differ in length; comparing lengths first (O(1) for native strings)
        // spares a full string comparison per attribute of the list.
        let length = name.utf8.count
        guard let i = parsed.attributes.firstIndex(where: { $0.name.utf8.count == length && $0.name == name }) else { return nil }
        if i < 64 { consumed |= 1 << UInt64(i) } else { consumedBeyond64.insert(i) }
        return parsed.attributes[i].value
    }

    /// Attributes not read by any typed accessor, in list order.
    var others: [Attribute] {
        guard consumed != (parsed.attributes.count >= 64 ? UInt64.max : (1 << UInt64(parsed.attributes.count)) - 1) || parsed.attributes.count > 64 else {
            return []
        }
        return parsed.attributes.indices.filter { i in
            i < 64 ? consumed & (1 << UInt64(i)) == 0 : !consumedBeyond64.contains(i)
        }.map { parsed.attributes[$0] }
    }

    func has(_ name: String) -> Bool { parsed.attributes[named: name] != nil }

    private func report(_ sink: inout DiagnosticSink, _ rule: Rule, _ name: String, _ message: String) {
        sink.report(rule, line: line, column: column(of: name), tag: tag, attribute: name, message: message)
    }

    mutating func quoted(_ name: String, _ sink: inout DiagnosticSink) -> String? {
        guard let v = raw(name) else { return nil }
        if case .unquoted(let s) = v {
            report(&sink, .invalidValue, name, "expected a quoted string, found \(s)")
        }
        return v.text
    }

    mutating func enumerated(_ name: String, _ sink: inout DiagnosticSink) -> String? {
        guard let v = raw(name) else { return nil }
        if case .quoted(let s) = v {
            report(&sink, .invalidValue, name, "expected an enumerated string without quotes, found \"\(s)\"")
        }
        return v.text
    }

    mutating func yesNo(_ name: String, _ sink: inout DiagnosticSink) -> Bool? {
        guard let s = enumerated(name, &sink) else { return nil }
        switch s {
        case "YES": return true
        case "NO": return false
        default:
            report(&sink, .invalidValue, name, "expected YES or NO, found \(s)")
            return nil
        }
    }

    /// A decimal-integer (0 … 2^64-1). Overflow is fatal; a float is truncated when lenient.
    mutating func unsigned(_ name: String, _ sink: inout DiagnosticSink) -> UInt64? {
        guard let v = raw(name) else { return nil }
        return DecimalParsing.integer(v.text, quoted: v.isQuoted, line: line, column: column(of: name), tag: tag, attribute: name, sink: &sink)
    }

    mutating func integer(_ name: String, _ sink: inout DiagnosticSink) -> Int? {
        guard let u = unsigned(name, &sink) else { return nil }
        guard u <= UInt64(Int.max) else {
            report(&sink, .invalidValue, name, "value \(u) is too large")
            return nil
        }
        return Int(u)
    }

    /// A decimal-floating-point (non-negative), or a signed one when `signed`.
    mutating func float(_ name: String, signed: Bool = false, _ sink: inout DiagnosticSink) -> Double? {
        guard let v = raw(name) else { return nil }
        if v.isQuoted { report(&sink, .invalidValue, name, "expected a number without quotes") }
        guard let d = DecimalParsing.float(v.text, signed: signed) else {
            report(&sink, .invalidValue, name, "expected a \(signed ? "signed " : "")decimal number, found \(v.text)")
            return nil
        }
        return d
    }

    mutating func resolution(_ name: String, _ sink: inout DiagnosticSink) -> Resolution? {
        guard let v = raw(name) else { return nil }
        let text = v.text
        if !v.isQuoted, let r = DecimalParsing.resolution(text, separator: UInt8(ascii: "x")) { return r }
        if !v.isQuoted, let r = DecimalParsing.resolution(text, separator: UInt8(ascii: "X")) {
            report(&sink, .invalidValue, name, "expected WIDTHxHEIGHT with a lowercase x, found \(text) (accepted)")
            return sink.isStrict ? nil : r
        }
        report(&sink, .invalidValue, name, "expected a decimal-resolution WIDTHxHEIGHT, found \(v.isQuoted ? "\"\(text)\"" : text)")
        return nil
    }

    /// A comma-separated quoted list such as CODECS.
    mutating func list(_ name: String, _ sink: inout DiagnosticSink) -> [String] {
        guard let s = quoted(name, &sink) else { return [] }
        var copy = s
        return copy.withUTF8 { b in
            b.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true).compactMap { item -> String? in
                var lo = item.startIndex
                var hi = item.endIndex
                while lo < hi, b[lo] == 0x20 || b[lo] == 0x09 { lo += 1 }
                while hi > lo, b[hi - 1] == 0x20 || b[hi - 1] == 0x09 { hi -= 1 }
                return lo < hi ? String(decoding: UnsafeBufferPointer(rebasing: b[lo..<hi]), as: UTF8.self) : nil
            }
        }
    }

    mutating func date(_ name: String, _ sink: inout DiagnosticSink) -> PlaylistDate? {
        guard let s = quoted(name, &sink) else { return nil }
        guard let d = DateParsing.date(s) else {
            report(&sink, .invalidValue, name, "expected an ISO 8601 date-time, found \(s)")
            return nil
        }
        return PlaylistDate(text: s, date: d)
    }

    mutating func byteRange(_ name: String, _ sink: inout DiagnosticSink) -> ByteRange? {
        guard let s = quoted(name, &sink) else { return nil }
        guard let r = DecimalParsing.byteRange(s) else {
            report(&sink, .invalidValue, name, "expected length[@offset], found \(s)")
            return nil
        }
        return r
    }
}

extension AttributeValue {
    var isQuoted: Bool { if case .quoted = self { return true } else { return false } }
}
