import Foundation
import JSONDocument
import MediaTesting
import Testing

@testable import HLS

/// Rules found missing when the parser was run against other parsers' test suites, and the
/// guards that keep a garbage input from producing an unbounded report.
@Suite("Conformance and hostile input")
struct ConformanceTests {
    static func parse(_ text: String, _ mode: ParseOptions.Mode = .lenient) -> ParseResult {
        PlaylistParser.parse(text, options: ParseOptions(mode: mode))
    }

    @Test("a variant without CODECS or RESOLUTION keeps FRAME-RATE, VIDEO-RANGE and HDCP-LEVEL")
    func videoAttributesWithoutCodecsOrResolution() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=9000000,FRAME-RATE=59.940,VIDEO-RANGE=PQ,HDCP-LEVEL=TYPE-1
            hdr/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3000000,FRAME-RATE=25
            sdr/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
            audio/index.m3u8
            """
        let playlist = try #require(Self.parse(text).playlist?.multivariant)
        let variants = playlist.inspectedVariants()
        let hdr = try #require(variants[0].videoAttributes)
        #expect(hdr.videoRange == .pq)
        #expect(hdr.nominalFrameRate == 59.94)
        #expect(hdr.hdcpLevel == "TYPE-1")
        #expect(hdr.presentationSize == nil)
        #expect(variants[0].badges == [.hdr])
        #expect(variants[1].videoAttributes?.nominalFrameRate == 25)
        #expect(variants[1].videoAttributes?.videoRange == .sdr)
        // Audio only: nothing says there is video.
        #expect(variants[2].videoAttributes == nil)
        #expect(playlist.badges() == [.hdr])
    }

    @Test("EXTINF without its comma is an error when strict and a warning when lenient")
    func extinfWithoutComma() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:9.009\nseg1.ts\n#EXTINF:9.009,\nseg2.ts\n#EXT-X-ENDLIST\n"
        let strict = Self.parse(text, .strict)
        let error = try #require(strict.errors.first)
        #expect(strict.errors.count == 1)
        #expect(error.line == 3)
        #expect(error.tag == "EXTINF")
        #expect(error.message.contains("comma"))
        let lenient = Self.parse(text)
        #expect(lenient.errors.isEmpty)
        #expect(lenient.warnings.contains { $0.line == 3 && $0.message.contains("comma") })
        #expect(lenient.playlist?.media?.segments.map(\.duration) == [9.009, 9.009])
    }

    @Test(
        "media playlist tags that describe the whole playlist appear once",
        arguments: [
            ("#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-MEDIA-SEQUENCE:2\n", "EXT-X-MEDIA-SEQUENCE"),
            ("#EXT-X-DISCONTINUITY-SEQUENCE:1\n#EXT-X-DISCONTINUITY-SEQUENCE:1\n", "EXT-X-DISCONTINUITY-SEQUENCE"),
            ("#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-PLAYLIST-TYPE:VOD\n", "EXT-X-PLAYLIST-TYPE"),
            ("#EXT-X-ENDLIST\n#EXT-X-ENDLIST\n", "EXT-X-ENDLIST"),
        ])
    func onceOnlyTags(header: String, tag: String) throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n" + header + "#EXTINF:4,\na.ts\n"
        let strict = Self.parse(text, .strict)
        let error = try #require(strict.errors.first { $0.tag == tag })
        #expect(error.line == 4)
        #expect(error.message.contains("more than once (first on line 3)"))
        let lenient = Self.parse(text)
        #expect(lenient.errors.isEmpty)
        #expect(lenient.playlist?.media != nil)
    }

    @Test("EXTM3U followed by random bytes is not a playlist, and the report stays small")
    func randomBytesAfterHeader() {
        var generator = SplitMix64(seed: 42)
        var bytes = Array("#EXTM3U\n".utf8)
        bytes += (0..<1_000_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for mode in [ParseOptions.Mode.lenient, .strict] {
            let result = PlaylistParser.parse(bytes, options: ParseOptions(mode: mode))
            #expect(result.playlist == nil)
            #expect(result.errors.contains { $0.message.contains("binary data") })
            #expect(result.diagnostics.count < 200)
        }
    }

    @Test("warnings past a thousand are counted, not kept, and the playlist still parses")
    func warningsAreCapped() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
        for i in 0..<3000 { text += "#EXTINF: 4 ,\nseg\(i).ts\n" }  // white space around each duration
        let result = Self.parse(text)
        #expect(result.errors.isEmpty)
        #expect(result.playlist?.media?.segments.count == 3000)
        #expect(result.warnings.count == 1001)
        #expect(result.warnings.last?.message == "2000 more warnings not listed (only the first 1000 are kept)")
    }

    @Test("inspect --json --segments lists each segment with its range, key, map and flags")
    func segmentList() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
            #EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x000102030405060708090a0b0c0d0e0f
            #EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:00.000Z
            #EXTINF:6,first
            #EXT-X-BYTERANGE:1000@720
            media.mp4
            #EXT-X-DISCONTINUITY
            #EXTINF:4.5,
            #EXT-X-BYTERANGE:500
            media.mp4
            #EXT-X-GAP
            #EXTINF:6,
            gap.mp4
            #EXT-X-ENDLIST
            """
        let result = Self.parse(text)
        let report = InspectionReport.json(for: result, url: URL(string: "https://cdn.example/v/index.m3u8"), segments: true)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.serialized().utf8)) as? [String: Any])
        let list = try #require(json["segmentList"] as? [[String: Any]])
        #expect(list.count == 3)
        #expect(list.map { $0["sequence"] as? Int } == [100, 101, 102])
        #expect(list.map { $0["start"] as? Double } == [0, 6, 10.5])
        #expect(list[0]["uri"] as? String == "https://cdn.example/v/media.mp4")
        #expect(list[0]["title"] as? String == "first")
        #expect((list[1]["byteRange"] as? [String: Int]) == ["length": 500, "offset": 1720])
        let key = try #require((list[0]["keys"] as? [[String: Any]])?.first)
        #expect(key["method"] as? String == "AES-128")
        #expect(key["iv"] as? String == "0x000102030405060708090a0b0c0d0e0f")
        #expect(key["uri"] as? String == "https://cdn.example/v/key.bin")
        #expect((list[0]["map"] as? [String: Any])?["uri"] as? String == "https://cdn.example/v/init.mp4")
        #expect(list[0]["programDateTime"] as? String == "2026-11-23T10:00:00.000Z")
        #expect(list.map { $0["discontinuity"] as? Bool } == [false, true, false])
        #expect(list.map { $0["gap"] as? Bool } == [false, false, true])
        // Without the flag the report keeps its documented shape.
        #expect(!InspectionReport.json(for: result, url: nil).serialized().contains("segmentList"))
    }
}
