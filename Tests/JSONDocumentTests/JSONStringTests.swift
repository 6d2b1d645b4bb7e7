import Foundation
import JSONDocument
import Testing

/// One spelling of JSON strings for every hand-written JSON (documents, log lines, pushes):
/// what it writes parses back to the same text, and nothing in it can break a line or a script.
@Suite("JSON string literals")
struct JSONStringTests {
    @Test(arguments: ["", "plain", "quote \" and \\ back", "tab\tnew\nline\r", "\u{0}\u{1}\u{1f}", "東京 · 🎬", "line\u{2028}para\u{2029}"])
    func quotedTextParsesBackToItself(_ text: String) throws {
        let literal = JSONString.quoted(text)
        let parsed = try JSONDecoder().decode(String.self, from: Data(literal.utf8))
        #expect(parsed == text)
        #expect(!literal.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x2028 || $0.value == 0x2029 })
        #expect(JSONString.escaped(text) == String(literal.dropFirst().dropLast()))
    }

    @Test func aDocumentUsesTheSameSpelling() throws {
        let value = JSONValue.object(["k\u{2028}": .string("a\u{1}b")])
        #expect(value.serialized() == #"{"k\u2028":"a\u0001b"}"#)
    }
}
