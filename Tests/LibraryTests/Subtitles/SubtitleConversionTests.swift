import Foundation
import Testing

@testable import Library

@Suite("Subtitle files: formats, conversion to WebVTT, hostile input")
struct SubtitleConversionTests {
    func convert(_ text: String) throws -> SubtitleConversion.Converted {
        try SubtitleConversion.webVTT(from: Data(text.utf8))
    }

    @Test func subRipBecomesWebVTTWithItsTagsAndTimes() throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i> & <font color=\"red\">bye</font>\n\n2\n00:00:03,000 --> 00:00:04,000\nTwo\nlines\n"
        let converted = try convert(srt)
        #expect(converted.format == .subRip)
        #expect(converted.cueCount == 2)
        #expect(converted.webVTT.hasPrefix("WEBVTT\n"))
        #expect(converted.webVTT.contains("00:00:01.000 --> 00:00:02.500\n<i>Hello</i> &amp; bye\n"))
        #expect(converted.webVTT.contains("00:00:03.000 --> 00:00:04.000\nTwo\nlines\n"))
    }

    @Test func byteOrderMarkCRLFAndLatin1AreRead() throws {
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF]
        bytes += Array("1\r\n00:00:01,000 --> 00:00:02,000\r\nCaf\u{e9}\r\n\r\n".utf8)
        let converted = try SubtitleConversion.webVTT(from: Data(bytes))
        #expect(converted.webVTT.contains("00:00:01.000 --> 00:00:02.000\nCafé\n"))
        let latin1 = Data("1\n00:00:01,000 --> 00:00:02,000\nCaf".utf8) + Data([0xE9, 0x0A])
        #expect(try SubtitleConversion.webVTT(from: latin1).webVTT.contains("Café"))
        let utf16 = Data([0xFF, 0xFE]) + "1\n00:00:01,000 --> 00:00:02,000\nwide\n".data(using: .utf16LittleEndian)!
        #expect(try SubtitleConversion.webVTT(from: utf16).webVTT.contains("wide"))
    }

    @Test func badTimesAreSkippedAndAFileOfOnlyBadTimesIsRefused() throws {
        let srt =
            "1\n00:00:01,000 --> 00:00:02,000\nGood\n\n2\n00:99:01,000 --> 00:00:02,000\nBad minutes\n\n3\n00:00:05,000 --> 00:00:04,000\nBackwards\n"
            + "\n4\n999999999999999999999:00:01,000 --> 00:00:02,000\nHuge\n\n5\n00:00:06,000 --> 00:00:07,000\nAlso good\n"
        let converted = try convert(srt)
        #expect(converted.cueCount == 2)
        #expect(!converted.webVTT.contains("Huge") && !converted.webVTT.contains("Backwards"))
        #expect(throws: SubtitleFileError.noCues(.subRip)) { try convert("1\n00:00:01,000 --> nonsense\nText\n") }
    }

    @Test(arguments: [
        "", "\u{FEFF}", "\n\n\n", "just some text\nwith lines\n", "%PDF-1.4 binary", "[Script Info]", "WEBVTT", "1\n00:00:01,000 -->",
        "1\n00:00:0",
    ])
    func emptyTruncatedOrUnknownFilesGetASentence(text: String) {
        #expect(throws: SubtitleFileError.self) { try convert(text) }
    }

    @Test func binaryAndOversizedFilesAreRefused() {
        #expect(throws: SubtitleFileError.unknownFormat) { try SubtitleConversion.webVTT(from: Data([0x00, 0x01, 0x02, 0xFF, 0x00])) }
        let big = Data(repeating: 0x41, count: SubtitleConversion.maximumBytes + 1)
        #expect(throws: SubtitleFileError.tooLarge(limit: SubtitleConversion.maximumBytes)) { try SubtitleConversion.webVTT(from: big) }
        #expect(SubtitleFileError.unknownFormat.description.contains("SubRip (.srt)"))
    }

    @Test func hostileLinesStayLinearAndNeverBreakTheCueText() throws {
        let braces = String(repeating: "{", count: 200_000)
        let ass =
            "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,\(braces)x\n"
            + "Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,a --> b\\N\\N\\Nc\n"
        let converted = try convert(ass)
        #expect(converted.cueCount == 2)
        #expect(converted.webVTT.contains("a --&gt; b\nc\n"))
        let angles = "1\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "<", count: 100_000) + "\n"
        #expect(try convert(angles).cueCount == 1)
    }

    @Test func webVTTIsReadAndRewrittenKeepingCueSettingsAndDroppingNotes() throws {
        let vtt =
            "WEBVTT - title\n\nNOTE a note\n\nSTYLE\n::cue { color: red }\n\nintro\n00:01.000 --> 00:02.000 align:left line:0 bogus:1\n<v Anna>Hi</v> <script>x</script>\n"
        let converted = try convert(vtt)
        #expect(converted.format == .webVTT)
        #expect(converted.cueCount == 1)
        #expect(converted.webVTT.contains("00:00:01.000 --> 00:00:02.000 align:left line:0\n<v Anna>Hi</v> x\n"))
    }

    @Test func assKeepsItalicBoldUnderlineAlignmentAndLineBreaks() throws {
        let ass = """
            [Script Info]
            ScriptType: v4.00+

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1
            Style: Sign,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,2,2,8,10,10,10,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:03.00,0:00:04.00,Sign,,0,0,0,,Top sign
            Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,{\\i1}Slanted{\\i0}, plain, {\\b1\\u1}strong{\\b0\\u0}\\Nsecond, line {\\c&H0000FF&\\fs30}coloured
            Dialogue: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,,{\\an7}Top left{\\p1}m 0 0 l 100 0{\\p0}
            Comment: 0,0:00:07.00,0:00:08.00,Default,,0,0,0,,not shown
            """
        let converted = try convert(ass)
        #expect(converted.format == .ass)
        #expect(converted.cueCount == 3)
        let text = converted.webVTT
        #expect(text.contains("00:00:01.000 --> 00:00:02.500\n<i>Slanted</i>, plain, <b><u>strong</u></b>\nsecond, line coloured\n"))
        #expect(text.contains("00:00:03.000 --> 00:00:04.000 line:0\n<b>Top sign</b>\n"))
        #expect(text.contains("00:00:05.000 --> 00:00:06.000 line:0 position:5% align:left\nTop left\n"))
        #expect(!text.contains("not shown") && !text.contains("m 0 0"))
        // In time order, whatever the file's order.
        #expect(text.range(of: "Slanted")!.lowerBound < text.range(of: "Top sign")!.lowerBound)
    }

    @Test func ssaUsesItsOwnAlignmentNumbers() throws {
        let ssa = """
            [Script Info]
            ScriptType: v4.00

            [V4 Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding
            Style: Default,Arial,20,16777215,65535,65535,0,0,-1,1,2,2,6,10,10,10,0,0

            [Events]
            Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0000,0000,0000,,Old, italic and at the top
            """
        let converted = try convert(ssa)
        #expect(converted.format == .ssa)
        #expect(converted.webVTT.contains("00:00:01.000 --> 00:00:02.000 line:0\n<i>Old, italic and at the top</i>\n"))
    }

    @Test func subRipWithASSAlignmentBlocks() throws {
        let converted = try convert("1\n00:00:01,000 --> 00:00:02,000\n{\\an8}On top\n")
        #expect(converted.webVTT.contains("00:00:01.000 --> 00:00:02.000 line:0\nOn top\n"))
    }

    @Test func formatsAreKnownByContentNotName() {
        #expect(SubtitleFormat.detect("WEBVTT\n\n00:01.000 --> 00:02.000\nx") == .webVTT)
        #expect(SubtitleFormat.detect("\n\n1\n00:00:01,000 --> 00:00:02,000\nx") == .subRip)
        #expect(SubtitleFormat.detect("[Script Info]\nScriptType: v4.00+\n[V4+ Styles]\n[Events]\n") == .ass)
        #expect(SubtitleFormat.detect("[Script Info]\n[V4 Styles]\n[Events]\n") == .ssa)
        #expect(SubtitleFormat.detect("WEBVTTX\n") == nil)
        #expect(SubtitleFormat.detect("hello --> world") == nil)
    }
}

@Suite("Subtitle files: languages, labels and sidecar names")
struct SubtitleNamingTests {
    @Test func languageTagsAreCheckedAndTidied() throws {
        #expect(try SubtitleLanguage.normalized("JA") == "ja")
        #expect(try SubtitleLanguage.normalized("jpn") == "ja")
        #expect(try SubtitleLanguage.normalized("pt_br") == "pt-BR")
        #expect(try SubtitleLanguage.normalized("zh-hant-tw") == "zh-Hant-TW")
        #expect(try SubtitleLanguage.normalized("") == nil)
        // No spaces: the rule is openapi.json's pattern (the page trims what a person typed).
        #expect(throws: SubtitleFileError.self) { try SubtitleLanguage.normalized(" ") }
        #expect(throws: SubtitleFileError.self) { try SubtitleLanguage.normalized(" en") }
        #expect(try SubtitleLanguage.normalized("und") == nil)
        for bad in ["e", "english language", "en--US", "\"><script>", "12", String(repeating: "a", count: 40)] {
            #expect(throws: SubtitleFileError.self) { try SubtitleLanguage.normalized(bad) }
        }
    }

    @Test func labelsFallBackToTheLanguageAndLoseQuotes() throws {
        #expect(try SubtitleLanguage.label("  日本語 (字幕)  ", language: "ja") == "日本語 (字幕)")
        #expect(try SubtitleLanguage.label(nil, language: "ja") == "日本語")
        #expect(try SubtitleLanguage.label("", language: nil) == "Subtitles")
        #expect(try SubtitleLanguage.label("Say \"hi\"\nnow", language: nil) == "Say 'hi' now")
        #expect(throws: SubtitleFileError.self) { try SubtitleLanguage.label(String(repeating: "x", count: 81), language: nil) }
    }

    @Test func sidecarNamesGiveTheirLanguage() {
        #expect(SidecarSubtitles.match("clip.srt", base: "clip")! == (nil, false))
        #expect(SidecarSubtitles.match("clip.en.srt", base: "clip")! == ("en", false))
        #expect(SidecarSubtitles.match("clip.pt-BR.VTT", base: "clip")! == ("pt-BR", false))
        #expect(SidecarSubtitles.match("clip.ja.forced.ass", base: "clip")! == ("ja", true))
        #expect(SidecarSubtitles.match("clip.en.sdh.srt", base: "clip")! == ("en", false))
        #expect(SidecarSubtitles.match("clipper.srt", base: "clip") == nil)
        #expect(SidecarSubtitles.match("clip.mp4", base: "clip") == nil)
        #expect(SidecarSubtitles.match("clip.director's cut.srt", base: "clip") == nil)
    }
}
