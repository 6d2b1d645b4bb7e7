/// Splits an attribute list (`NAME=value,NAME="quoted"`) into attributes, noting the column
/// of each value for diagnostics. Lenient about white space around names and commas and a
/// trailing comma (with warnings); strict about closing quotes and duplicate names.
struct AttributeListParser {
    struct Parsed {
        var attributes: [Attribute] = []
        /// 1-based column of each attribute's name.
        var columns: [Int] = []
        /// False when the list could not be read to its end (an unterminated quote).
        var complete = true
    }

    /// Parses `bytes[start..<end]`; `baseColumn` is the 1-based column of `start`.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, baseColumn: Int,
        tag: String, line: Int, sink: inout DiagnosticSink
    ) -> Parsed {
        var result = Parsed()
        result.attributes.reserveCapacity(12)
        result.columns.reserveCapacity(12)
        /// Byte ranges of the names kept so far, for the duplicate check without strings.
        var names: [(range: Range<Int>, ascii: Bool)] = []
        names.reserveCapacity(12)
        var i = start
        func column(_ at: Int) -> Int { baseColumn + (at - start) }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

        while i < end {
            // Leading white space before a name.
            var sawSpace = false
            while i < end, isSpace(bytes[i]) {
                i += 1
                sawSpace = true
            }
            if i >= end { break }
            if sawSpace {
                sink.report(.whitespace, line: line, column: column(i), tag: tag, message: "white space before an attribute name")
            }
            let nameStart = i
            while i < end, bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ",") { i += 1 }
            var nameEnd = i
            while nameEnd > nameStart, isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self)
            guard i < end, bytes[i] == UInt8(ascii: "=") else {
                if !name.isEmpty {
                    sink.report(
                        .malformedAttribute, line: line, column: column(nameStart), tag: tag, attribute: name,
                        message: "expected NAME=value, found '\(name)' without a value")
                }
                i += 1
                continue
            }
            if nameStart == nameEnd
                || !(nameStart..<nameEnd).allSatisfy({
                    let c = bytes[$0]
                    return (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D
                })
            {
                sink.report(
                    .malformedAttribute, line: line, column: column(nameStart), tag: tag, attribute: name,
                    message: "attribute name must be A-Z, 0-9 and '-'")
            }
            i += 1  // '='
            var valueStart = i
            while valueStart < end, isSpace(bytes[valueStart]) { valueStart += 1 }
            if valueStart != i {
                sink.report(.whitespace, line: line, column: column(i), tag: tag, attribute: name, message: "white space after '='")
            }
            i = valueStart
            let value: AttributeValue
            if i < end, bytes[i] == UInt8(ascii: "\"") {
                let open = i
                i += 1
                let textStart = i
                while i < end, bytes[i] != UInt8(ascii: "\"") { i += 1 }
                if i >= end {
                    sink.report(
                        .unterminatedQuote, line: line, column: column(open), tag: tag, attribute: name,
                        message: "quoted string is not closed before the end of the line")
                    result.complete = false
                    return result
                }
                value = .quoted(String(decoding: UnsafeBufferPointer(rebasing: bytes[textStart..<i]), as: UTF8.self))
                i += 1  // closing quote
                var after = i
                while after < end, isSpace(bytes[after]) { after += 1 }
                if after < end, bytes[after] != UInt8(ascii: ",") {
                    sink.report(
                        .malformedAttribute, line: line, column: column(after), tag: tag, attribute: name,
                        message: "expected ',' after the quoted string")
                    while after < end, bytes[after] != UInt8(ascii: ",") { after += 1 }
                } else if after != i, after < end {
                    sink.report(.whitespace, line: line, column: column(i), tag: tag, attribute: name, message: "white space before ','")
                }
                i = after
            } else {
                let textStart = i
                while i < end, bytes[i] != UInt8(ascii: ",") { i += 1 }
                var textEnd = i
                while textEnd > textStart, isSpace(bytes[textEnd - 1]) { textEnd -= 1 }
                if textEnd != i, i < end {
                    sink.report(.whitespace, line: line, column: column(textEnd), tag: tag, attribute: name, message: "white space before ','")
                }
                if let bad = (textStart..<textEnd).first(where: { bytes[$0] == UInt8(ascii: "\"") || bytes[$0] <= 0x20 || bytes[$0] == 0x7F }) {
                    sink.report(
                        .malformedAttribute, line: line, column: column(bad), tag: tag, attribute: name,
                        message: bytes[bad] == UInt8(ascii: "\"")
                            ? "unexpected '\"' inside an unquoted value; attribute ignored"
                            : "white space or a control character inside an unquoted value; attribute ignored")
                    if i < end { i += 1 }
                    continue
                }
                value = .unquoted(String(decoding: UnsafeBufferPointer(rebasing: bytes[textStart..<textEnd]), as: UTF8.self))
            }
            // Names are compared as the model keeps them: bytes for ASCII names (the fast,
            // common case); decoded strings otherwise, since invalid UTF-8 reads as U+FFFD and
            // two different byte runs can become the same name.
            let nameBytes = UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd])
            let ascii = nameBytes.allSatisfy { $0 < 0x80 }
            if let first = names.indices.firstIndex(where: { k in
                ascii && names[k].ascii
                    ? names[k].range.count == nameBytes.count && UnsafeBufferPointer(rebasing: bytes[names[k].range]).elementsEqual(nameBytes)
                    : result.attributes[k].name == name
            }) {
                sink.report(
                    .duplicateAttribute, line: line, column: column(nameStart), tag: tag, attribute: name,
                    message: "attribute appears more than once (first at column \(result.columns[first])); the first value is kept")
            } else {
                result.attributes.append(Attribute(name: name, value: value))
                result.columns.append(column(nameStart))
                names.append((nameStart..<nameEnd, ascii))
            }
            if i < end, bytes[i] == UInt8(ascii: ",") {
                i += 1
                var rest = i
                while rest < end, isSpace(bytes[rest]) { rest += 1 }
                if rest >= end {
                    sink.report(.trailingComma, line: line, column: column(i - 1), tag: tag, message: "attribute list ends with ','")
                }
            }
        }
        return result
    }
}
