import Foundation
import MediaTesting
import Testing

@testable import Library

/// Hostile input, many times over: well-formed SubRip, WebVTT and ASS files cut, spliced and
/// sprinkled with the characters the readers treat specially. Every one either converts to
/// WebVTT that reads back as the same cues, or is refused with a `SubtitleFileError` — never a
/// crash, never WebVTT a browser would read differently.
@Suite("Subtitle files: mutated input")
struct SubtitleMutationTests {
    static let seeds = [
        "1\r\n00:00:01,000 --> 00:00:02,000\r\n<i>One</i> & two\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000 X1:0\r\n{\\an8}Top\r\n",
        "WEBVTT\n\nNOTE hi\n\n00:01.000 --> 00:02.000 line:0\n<v A>Hi</v> <c.x>there</c>\n\n00:02.500 --> 00:03.000\n&amp; more\n",
        """
        [Script Info]
        ScriptType: v4.00+
        [V4+ Styles]
        Format: Name, Bold, Italic, Underline, Alignment
        Style: Default,0,1,0,7
        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\b1}A{\\b0}\\N{\\u1}B{\\r}C{\\p1}m 0 0{\\p0}
        Dialogue: 0,0:00:00.50,0:00:03.00,Default,,0,0,0,,{\\an5\\i0}Middle, with, commas
        """,
    ]
    static let specials = ["{", "}", "\\", "<", ">", "&", "-->", "\r", "\n", "\n\n", ":", ",", ".", "\u{FEFF}", "\\N", "{\\i1}", "<i>", "\0", "é", "字"]

    static func mutate(_ text: String, _ random: inout SplitMix64) -> Data {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            guard !characters.isEmpty else { break }
            let at = Int.random(in: 0...characters.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: characters = Array(characters[..<at])  // truncated
            case 1: characters.insert(contentsOf: Array(specials.randomElement(using: &random)!), at: at)
            case 2 where at < characters.count: characters.remove(at: at)
            case 3:
                let from = Int.random(in: 0..<characters.count, using: &random)
                let chunk = characters[from..<min(characters.count, from + Int.random(in: 1...40, using: &random))]
                characters.insert(contentsOf: chunk, at: at)
            default:
                if at < characters.count { characters[at] = Character(String(Int.random(in: 0...9, using: &random))) }
            }
        }
        var data = Data(String(characters).utf8)
        if Int.random(in: 0..<10, using: &random) == 0 { data.append(contentsOf: (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }) }
        return data
    }

    @Test(arguments: 0..<3)
    func mutatedFilesConvertToStableWebVTTOrAreRefused(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var converted = 0
        for _ in 0..<1500 {
            let data = Self.mutate(Self.seeds[seed], &random)
            let result: SubtitleConversion.Converted
            do {
                result = try SubtitleConversion.webVTT(from: data)
            } catch {
                continue
            }
            converted += 1
            let vtt = result.webVTT
            #expect(vtt.hasPrefix("WEBVTT\n"))
            // Read back, the WebVTT holds the same cues, each with text on non-empty lines.
            let again = try SubtitleConversion.webVTT(from: Data(vtt.utf8))
            #expect(again.cueCount == result.cueCount, "\(String(decoding: data, as: UTF8.self).debugDescription)")
            #expect(again.webVTT == vtt, "\(String(decoding: data, as: UTF8.self).debugDescription)")
            for block in vtt.components(separatedBy: "\n\n").dropFirst() {
                let lines = block.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count >= 3 && lines[1].contains(" --> "))
                #expect(lines.dropFirst(2).allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.contains("-->") }, "\(block.debugDescription)")
            }
        }
        #expect(converted > 100)
    }
}
