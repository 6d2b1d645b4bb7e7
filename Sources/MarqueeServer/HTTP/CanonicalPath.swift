/// The one spelling of a request path that the access rules, the rate limits and the router
/// all read, made once per request before any of them looks (`CanonicalPathMiddleware`).
///
/// Many spellings name the same route: `//api/users`, `/api/users/`, `/api/./users`,
/// `/x/../api/users`, `/api%2Fusers`, `/%61pi/users`. Each is reduced as nginx and RFC 3986
/// reduce them: percent escapes are decoded (`%2F` becomes a separator, as in nginx), empty and
/// `.` segments are dropped, `..` removes the segment before it (never climbing above `/`),
/// and each segment is written again with only the bytes a path may carry bare left bare and
/// every other byte as an upper-case `%XX`. Letter case is kept here (identifiers are
/// case-sensitive); route names are matched without regard to case by both the router and
/// `AccessRules`, so `/API/Users` is the same route with the same permission.
///
/// A path that cannot be read — a `%` not followed by two hex digits, a NUL or other control
/// byte once decoded, or a target that does not start with `/` — is refused with a reason.
public struct CanonicalPath: Sendable, Hashable, CustomStringConvertible {
    /// The JSON Schema `pattern` every path parameter states in `openapi.json`: a segment with
    /// a control byte once decoded is refused (`Failure.controlByte`) before any route sees it.
    public static let parameterPattern = #"^[^\u0000-\u001f\u007f]*$"#

    /// The canonical text: `/` followed by the segments joined with `/`, no trailing slash.
    public let text: String
    /// The decoded segments (bytes as sent, after percent-decoding).
    public let segments: [[UInt8]]

    public var description: String { text }

    /// Why a path cannot be read.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case notAbsolute
        case badEscape
        case controlByte

        public var description: String {
            switch self {
            case .notAbsolute: "The request path must start with \"/\""
            case .badEscape: "The request path has a \"%\" that is not followed by two hexadecimal digits"
            case .controlByte: "The request path has a control character (such as NUL or a line break) in it"
            }
        }
    }

    /// Reduces `path` (the request target without its `?query`).
    public init(_ path: some StringProtocol) throws(Failure) {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { throw .notAbsolute }
        var segments: [[UInt8]] = []
        var current: [UInt8] = []

        func close() {
            switch current {
            case [], [UInt8(ascii: ".")]: break
            case [UInt8(ascii: "."), UInt8(ascii: ".")]: _ = segments.popLast()
            default: segments.append(current)
            }
            current = []
        }

        var index = 0
        while index < bytes.count {
            var byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = Self.hexValue(bytes[index + 1]), let low = Self.hexValue(bytes[index + 2]) else {
                    throw .badEscape
                }
                byte = high << 4 | low
                index += 3
            } else {
                index += 1
            }
            if byte < 0x20 || byte == 0x7F { throw .controlByte }
            if byte == UInt8(ascii: "/") {
                close()
            } else {
                current.append(byte)
            }
        }
        close()
        self.segments = segments
        var text = ""
        text.reserveCapacity(bytes.count)
        if segments.isEmpty { text = "/" }
        for segment in segments {
            text.append("/")
            for byte in segment {
                if Self.isBare(byte) {
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    text.append("%")
                    text.append(Self.hexDigits[Int(byte >> 4)])
                    text.append(Self.hexDigits[Int(byte & 0x0F)])
                }
            }
        }
        self.text = text
    }

    /// Whether `path` is already canonical (so a request needs no rewriting).
    public static func isCanonical(_ path: some StringProtocol) -> Bool {
        (try? CanonicalPath(path))?.text == String(path)
    }

    static let hexDigits: [Character] = Array("0123456789ABCDEF")

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// RFC 3986 `pchar` without `%`: unreserved, sub-delims, `:` and `@`.
    static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"),
            UInt8(ascii: "@"):
            true
        default: false
        }
    }
}
