public import Foundation

/// The one rule for an http(s) address a client hands the server to fetch from (a stream to
/// inspect or download, an external ad, an interstitial's content): the text matches
/// `pattern` (what `openapi.json` states, character for character) and is at most
/// `maximumLength` characters. Written once, so the document and the server cannot disagree
/// about which addresses are well formed; whether anything answers there is another matter
/// (a 422 or 502 that says so).
///
/// Foundation's `URL(string:)` is lenient (it takes `http://!!`, percent-encodes a space in a
/// path and refuses one in a host), so it is not the rule; every text the pattern takes parses
/// with it (`HTTPAddressTests` checks this over generated addresses).
public enum HTTPAddress {
    /// `http://` or `https://` (any case), a host (a name of RFC 3986 unreserved and sub-delim
    /// characters, or an IPv6 address in brackets, `ipv6`), an optional port, then anything printable
    /// in ASCII without spaces.
    public static let pattern = "^" + address + "$"
    /// A path on this server (`/media/ID/master.m3u8`): a slash, then printable ASCII without spaces.
    public static let pathPattern = "^" + path + "$"
    /// An address (`pattern`) or a path on this server (`pathPattern`): an interstitial's content.
    public static let addressOrPathPattern = "^(" + address + "|" + path + ")$"

    /// `pattern` without its anchors, to build other rules from (a field that takes an
    /// address or something else).
    public static let address =
        #"[Hh][Tt][Tt][Pp][Ss]?://([A-Za-z0-9._~!$&'()*+,;=-]+|\["# + ipv6 + #"\])(:[0-9]{1,5})?([/?#][!-~]*)?"#

    /// An IPv6 address as RFC 3986 writes it between a URL's brackets (`IPv6address`, section
    /// 3.2.2: eight groups, `::` for a run of zeros, an IPv4 address in the last 32 bits), so
    /// `[b0:]` is not one. A looser rule let such a host be stored and shown back, and clients
    /// that check a bracketed host (Python's `urlsplit`) failed on the answer.
    static let ipv6: String = {
        let h16 = "[0-9A-Fa-f]{1,4}"
        let octet = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
        let ls32 = "(?:\(h16):\(h16)|\(octet)\\.\(octet)\\.\(octet)\\.\(octet))"
        let forms = [
            "(?:\(h16):){6}\(ls32)", "::(?:\(h16):){5}\(ls32)", "(?:\(h16))?::(?:\(h16):){4}\(ls32)",
            "(?:(?:\(h16):){0,1}\(h16))?::(?:\(h16):){3}\(ls32)", "(?:(?:\(h16):){0,2}\(h16))?::(?:\(h16):){2}\(ls32)",
            "(?:(?:\(h16):){0,3}\(h16))?::\(h16):\(ls32)", "(?:(?:\(h16):){0,4}\(h16))?::\(ls32)",
            "(?:(?:\(h16):){0,5}\(h16))?::\(h16)", "(?:(?:\(h16):){0,6}\(h16))?::",
        ]
        return "(?:" + forms.joined(separator: "|") + ")"
    }()
    /// `pathPattern` without its anchors.
    public static let path = #"/[!-~]*"#
    /// The longest address taken, in characters.
    public static let maximumLength = 2048

    private static let expression = try! NSRegularExpression(pattern: pattern)
    private static let pathExpression = try! NSRegularExpression(pattern: pathPattern)

    /// The address `text` names, or nil when it is not one by the rule.
    public static func url(_ text: String) -> URL? {
        guard text.utf16.count <= maximumLength, matches(expression, text), let url = URL(string: text), url.host?.isEmpty == false else { return nil }
        return url
    }

    /// Whether `text` is a path on this server by the rule (`pathPattern`).
    public static func isPath(_ text: String) -> Bool {
        text.utf16.count <= maximumLength && matches(pathExpression, text)
    }

    private static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
