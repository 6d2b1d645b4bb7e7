import Foundation
import Testing

@testable import Library

/// `HTTPAddress` is the rule `openapi.json` states for addresses the server fetches from: every
/// text its pattern takes is an address Foundation parses (with a host), and texts it refuses
/// are refused whatever `URL(string:)` would make of them.
@Suite("HTTP addresses")
struct HTTPAddressTests {
    /// A seeded generator (SplitMix64), so a failure names an address that comes back.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A random address the pattern's grammar allows (every branch of it).
    static func generated(_ random: inout Seeded) -> String {
        func pick(_ characters: String, _ count: ClosedRange<Int>) -> String {
            let all = Array(characters)
            return String((0..<Int.random(in: count, using: &random)).map { _ in all.randomElement(using: &random)! })
        }
        let scheme = ["http", "https", "HTTP", "hTtPs"].randomElement(using: &random)!
        let host =
            Bool.random(using: &random) ? pick("ABCXYZabcxyz0189._~!$&'()*+,;=-", 1...12) : "[" + ipv6(&random) + "]"
        let port = Bool.random(using: &random) ? ":" + pick("0123456789", 1...5) : ""
        let printable = String((0x21...0x7E).map { Character(UnicodeScalar(UInt8($0))) })
        let rest = Bool.random(using: &random) ? pick("/?#", 1...1) + pick(printable, 0...40) : ""
        return scheme + "://" + host + port + rest
    }

    /// A random IPv6 address in one of the ways RFC 4291 lets it be written: full, with one run
    /// of groups written `::`, with an IPv4 address in its last 32 bits, in either case.
    static func ipv6(_ random: inout Seeded) -> String {
        var groups = (0..<8).map { _ in
            String(UInt16.random(in: 0...0xFFFF, using: &random) >> UInt16.random(in: 0...15, using: &random), radix: 16)
        }
        var tail = ""
        if Int.random(in: 0..<4, using: &random) == 0 {
            groups.removeLast(2)
            tail = (0..<4).map { _ in String(Int.random(in: 0...255, using: &random)) }.joined(separator: ".")
        }
        var text: String
        if Bool.random(using: &random) {
            let start = Int.random(in: 0..<groups.count, using: &random)
            let length = Int.random(in: 1...(groups.count - start), using: &random)
            let right = [groups[(start + length)...].joined(separator: ":"), tail].filter { !$0.isEmpty }.joined(separator: ":")
            text = groups[..<start].joined(separator: ":") + "::" + right
        } else {
            text = ([groups.joined(separator: ":")] + (tail.isEmpty ? [] : [tail])).joined(separator: ":")
        }
        if Bool.random(using: &random) { text = text.uppercased() }
        return text
    }

    @Test("Every address the pattern takes parses, with a host; 20,000 generated")
    func generatedAddressesParse() throws {
        var random = Seeded(state: 20_261_207)
        let expression = try NSRegularExpression(pattern: HTTPAddress.pattern)
        for _ in 0..<20_000 {
            let text = Self.generated(&random)
            #expect(expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil, "\(text)")
            #expect(HTTPAddress.url(text) != nil, "\(text)")
        }
    }

    @Test("Texts the pattern refuses are refused, even where URL(string:) takes them")
    func refused() {
        for text in [
            "", " http://a", "http://a ", "http://a/x y", "ftp://a", "http://", "http:///x", "//a/x", "http://a b",
            "http://user@a/", "http://ä/", "http://a/ä", "http://a\n", "http://a:123456", "javascript:alert(1)",
            "http://" + String(repeating: "a", count: 2048),
            // Not IPv6 addresses in brackets (RFC 3986's IPv6address), though only hex digits, ":" and ".".
            "http://[b0:]/x", "http://[1:2:3:4:5:6:7:8:9]/", "http://[1::2::3]/", "http://[::1.2.3.04]/", "http://[12345::]/",
            "http://[::256.1.1.1]/", "http://[1.2.3.4]/", "http://[]/",
        ] {
            #expect(HTTPAddress.url(text) == nil, "\(text)")
        }
        for text in [
            "http://a", "https://example.com:8443/live/master.m3u8?token=1#t", "http://[::1]:8080/x.m3u8", "HTTP://A/%zz",
            "http://[2001:DB8::1]/a.m3u8", "http://[::ffff:192.0.2.1]/", "http://[1:2:3:4:5:6:7:8]/", "http://[fe80::]/",
        ] {
            #expect(HTTPAddress.url(text) != nil, "\(text)")
        }
        #expect(HTTPAddress.isPath("/media/abc/master.m3u8"))
        #expect(!HTTPAddress.isPath("media/abc"))
        #expect(!HTTPAddress.isPath("/a b"))
    }
}
