import Foundation

extension ParserState {
    /// EXT-X-DEFINE with NAME/VALUE, IMPORT (from the multivariant playlist's variables) or
    /// QUERYPARAM (from the playlist URL's query).
    mutating func handleDefine(_ tag: TagLine) {
        guard var r = tag.attributes(&sink) else { return }
        let forms = ["NAME", "IMPORT", "QUERYPARAM"].filter(r.has)
        guard forms.count == 1, let form = forms.first else {
            sink.report(
                .specViolation, line: tag.line, column: tag.column, tag: tag.name,
                message: "expected exactly one of NAME, IMPORT or QUERYPARAM")
            return
        }
        guard let name = r.quoted(form, &sink) else { return }
        guard !name.isEmpty, name.utf8.allSatisfy(Self.isVariableNameByte) else {
            sink.report(
                .specViolation, line: tag.line, column: r.column(of: form), tag: tag.name, attribute: form,
                message: "variable name '\(name)' may only contain A-Z, a-z, 0-9, '-' and '_'")
            return
        }
        if variables[name] != nil {
            sink.report(
                .specViolation, line: tag.line, column: r.column(of: form), tag: tag.name, attribute: form,
                message: "variable '\(name)' is defined more than once")
        }
        switch form {
        case "NAME":
            guard let value = r.quoted("VALUE", &sink) else { return missing(tag, "VALUE") }
            variables[name] = value
            definitions.append(.value(name: name, value: value))
        case "IMPORT":
            if multivariantLine != nil {
                sink.report(
                    .specViolation, line: tag.line, column: tag.column, tag: tag.name, attribute: "IMPORT",
                    message: "IMPORT is only allowed in media playlists")
            }
            definitions.append(.import(name: name))
            guard let value = options.importedVariables[name] else {
                sink.report(
                    .alwaysError, line: tag.line, column: r.column(of: form), tag: tag.name, attribute: "IMPORT",
                    message: "imports '\(name)', which the multivariant playlist does not define")
                return
            }
            variables[name] = value
        default:
            definitions.append(.queryParameter(name: name))
            let items = options.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
            guard let value = items.first(where: { $0.name == name })?.value else {
                sink.report(
                    .alwaysError, line: tag.line, column: r.column(of: form), tag: tag.name, attribute: "QUERYPARAM",
                    message: "query parameter '\(name)' is not in the playlist URL\(options.url.map { " \($0.absoluteString)" } ?? " (no URL given)")")
                return
            }
            variables[name] = value
        }
    }

    static func isVariableNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
    }

    /// Replaces `{$name}` references; nil when nothing was replaced. An undefined name is an
    /// error (the reference stays as written); expansion past the limit stops the parse
    /// before anything that large is allocated.
    mutating func substituteVariables(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, line: Int) -> [UInt8]? {
        // Measure first, so a hostile definition chain never allocates its expansion.
        var references: [(start: Int, end: Int, value: String?)] = []
        var added = 0
        var i = s
        while i + 1 < e {
            guard b[i] == UInt8(ascii: "{"), b[i + 1] == UInt8(ascii: "$") else {
                i += 1
                continue
            }
            var j = i + 2
            while j < e, Self.isVariableNameByte(b[j]) { j += 1 }
            guard j < e, j > i + 2, b[j] == UInt8(ascii: "}") else {
                i += 2
                continue
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 2)..<j]), as: UTF8.self)
            let value = variables[name]
            if value == nil {
                sink.report(
                    .alwaysError, line: line, column: i - s + 1, tag: tagName(b, s, e),
                    message:
                        "variable reference {$\(name)} names a variable that is not defined\(variables.isEmpty ? "" : " (defined: \(variables.keys.sorted().joined(separator: ", ")))")"
                )
            }
            added += (value?.utf8.count ?? 0)
            if added > options.maximumExpansion {
                sink.report(
                    .fatal, line: line, column: i - s + 1, tag: tagName(b, s, e),
                    message: "expanded value too large: variable substitution would add more than \(options.maximumExpansion) bytes to this line")
                stopped = true
                return nil
            }
            references.append((i, j + 1, value))
            i = j + 1
        }
        guard references.contains(where: { $0.value != nil }) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(e - s + added)
        var cursor = s
        for r in references {
            guard let value = r.value else { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[cursor..<r.start]))
            out.append(contentsOf: value.utf8)
            cursor = r.end
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[cursor..<e]))
        return out
    }
}
