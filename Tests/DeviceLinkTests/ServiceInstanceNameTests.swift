import DeviceLink
import Testing

@Suite("DNS-SD instance names")
struct ServiceInstanceNameTests {
    @Test("A name over 63 bytes is shortened at a character boundary; a short one is kept")
    func truncation() {
        let japanese = "リビングルームの大きなテレビジョン受信機ですね"  // 23 characters, 69 bytes
        let shortened = ServiceInstanceName.truncated(japanese)
        #expect(shortened.utf8.count <= 63)
        #expect(shortened == String(japanese.prefix(21)))
        #expect(ServiceInstanceName.truncated("Living Room") == "Living Room")
        // An emoji with a modifier (8 bytes) is never split.
        let emoji = String(repeating: "a", count: 60) + "👍🏽"
        #expect(ServiceInstanceName.truncated(emoji) == String(repeating: "a", count: 60))
    }

    @Test("A taken name becomes \"Name (2)\", \"Name (3)\", shortened so the whole fits in 63 bytes")
    func renaming() {
        #expect(ServiceInstanceName.candidate("Living Room", attempt: 1) == "Living Room")
        #expect(ServiceInstanceName.candidate("Living Room", attempt: 2) == "Living Room (2)")
        let long = String(repeating: "x", count: 70)
        let third = ServiceInstanceName.candidate(long, attempt: 3)
        #expect(third.utf8.count == 63 && third.hasSuffix(" (3)"))
    }
}
