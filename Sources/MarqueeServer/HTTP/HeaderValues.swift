/// The request-header values Marquee reads from clients, parsed in one place without
/// Foundation or NIO so that `Fuzz/HeaderParsersFuzz.swift` can reach every one of them: the
/// session cookie, an `Authorization: Bearer` credential and the host name of a `Host` or
/// `Origin` authority. (`Range` is `ByteRangeRequest`, `Content-Range` is `ChunkRange`, the
/// path is `CanonicalPath`.) None of them traps or allocates more than its input.
enum HeaderValues {
    /// What an `Authorization` header holds.
    enum Authorization: Equatable {
        /// `Bearer <token>` (scheme in any case, one or more spaces), with the token.
        case bearer(Substring)
        /// Any other scheme, or a header without a credential.
        case unsupported
    }

    /// Reads an `Authorization` header.
    static func authorization(_ header: String) -> Authorization {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return .unsupported }
        let token = parts[1].drop { $0 == " " }
        return token.isEmpty ? .unsupported : .bearer(token)
    }

    /// The value of the cookie called `name` in a `Cookie` header, or nil when it is absent or empty.
    static func cookie(named name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2, trimmed(kv[0]) == name {
                let value = trimmed(kv[1])
                return value.isEmpty ? nil : String(value)
            }
        }
        return nil
    }

    /// The host name of a `Host` or `Origin` authority, lower-cased, without port or IPv6 brackets.
    static func hostName(ofAuthority authority: Substring) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close]).lowercased()
        }
        return String(authority.split(separator: ":", maxSplits: 1).first ?? "").lowercased()
    }

    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
