import Foundation
import MediaTesting
import Testing

@testable import HLS

/// The parser's byte-level shortcuts against the plain definitions they replace.
@Suite("Byte scanning")
struct ScanningTests {
    /// A byte the word-at-a-time scan may skip: printable ASCII other than '$'.
    static func plain(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x80 && b != UInt8(ascii: "$") }

    @Test func skippingPlainBytesStopsAtTheFirstWordWithAnythingElse() {
        var rng = SplitMix64(seed: 0x5EED)
        // Mostly plain text with a few of each interesting byte, at every alignment.
        let specials: [UInt8] = [0x0A, 0x0D, 0x09, 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, UInt8(ascii: "$"), UInt8(ascii: "{"), 0x20, 0x23]
        for _ in 0..<20_000 {
            let count = Int(rng.next() % 40)
            let bytes: [UInt8] = (0..<count).map { _ in
                rng.next() % 6 == 0 ? specials[Int(rng.next() % UInt64(specials.count))] : UInt8(0x20 + rng.next() % 0x5F)
            }
            let start = count == 0 ? 0 : Int(rng.next() % UInt64(count))
            var expected = start
            while expected + 8 <= count, bytes[expected..<expected + 8].allSatisfy(Self.plain) { expected += 8 }
            let got = bytes.withUnsafeBufferPointer { ParserState.skipPlainBytes($0, from: start) }
            #expect(got == expected, "\(bytes) from \(start)")
        }
    }

    @Test func controlHighAndReferenceFlagsSurviveTheShortcut() {
        // A control character, a UTF-8 sequence and a variable reference each placed past
        // long plain runs, at every offset within a word.
        for offset in 0..<16 {
            let pad = String(repeating: "a", count: 24 + offset)
            let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\(pad)\u{01}\nsegment-\(pad)-é.ts\n#EXT-X-ENDLIST\n"
            let result = PlaylistParser.parse(Data(text.utf8), options: ParseOptions(mode: .strict))
            #expect(result.diagnostics.contains { $0.line == 3 && $0.message.contains("control character 0x1") }, "offset \(offset)")
            #expect(result.playlist?.media?.segments.first?.uri == "segment-\(pad)-é.ts")
            let reference = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"v\",VALUE=\"x\"\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n\(pad){$v}.ts\n#EXT-X-ENDLIST\n"
            #expect(PlaylistParser.parse(Data(reference.utf8)).playlist?.media?.segments.first?.uri == "\(pad)x.ts", "offset \(offset)")
        }
    }
}
