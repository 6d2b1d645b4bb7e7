import Foundation
import Testing

@testable import HLS

/// Inputs the fuzzer found; each once crashed the parser or broke a round trip.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let inputs: [String] = [
        // A 400-digit duration: infinite, then trapped converting to Int.
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:" + String(repeating: "9", count: 400) + ",\na.ts\n",
        // An EXTINF far beyond Int.max with no target duration.
        "#EXTM3U\n#EXTINF:99999999999999999999999.5,\na.ts\n",
        // A stray quote inside an unquoted value.
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=x\"avc1,mp4a.40.2\"\na.m3u8\n",
        // An empty attribute list.
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-SERVER-CONTROL:\n#EXTINF:6,\na.ts\n",
        // Carriage returns before the line feed.
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-DISCONTINUITY\r\r\r\n#EXTINF:6,\na.ts\n",
        // A key format dropped by METHOD=NONE, then another key.
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://a\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n#EXTINF:6,\na.ts\n#EXT-X-KEY:METHOD=NONE\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:6,\nb.ts\n",
        // A date range completed by a later tag with the same ID into an invalid interstitial.
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00Z\n#EXT-X-DATERANGE:ID=\"m\",START-DATE=\"2024-05-01T12:00:06Z\",X-ASSET-URI=\"a.m3u8\",X-ASSET-LIST=\"l.json\"\n#EXT-X-DATERANGE:ID=\"m\",CLASS=\"com.apple.hls.interstitial\",X-ASSET-LIST=\"l.json\"\n#EXTINF:6,\na.ts\n",
        // An END-DATE before START-DATE arriving in a second tag with the same ID.
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2024-05-01T12:00:10Z\"\n#EXT-X-DATERANGE:ID=\"a\",END-DATE=\"2024-05-01T12:00:05Z\"\n#EXTINF:6,\na.ts\n",
        // Keys of several formats where a new format arrives before an existing one is replaced.
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://b\",KEYFORMAT=\"b\"\n#EXTINF:5,\n1.mp4\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://a\"\n#EXTINF:5,\n2.mp4\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://c\",KEYFORMAT=\"c\"\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://b2\",KEYFORMAT=\"b\"\n#EXTINF:5,\n3.mp4\n",
        // A CUE of blanks.
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2024-05-01T12:00:10Z\",CUE=\"  \"\n#EXTINF:6,\na.ts\n",
        // A quoted METHOD holding a comma: must not be written back unquoted.
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=\"X ES,URI=\",URI=\"k\"\n#EXTINF:6,\na.ts\n",
        // Unquoted values with a control character or inner space, and an empty unquoted value.
        "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"n\",X-A=\u{01}B,X-B=c d,X-C=\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n",
    ]

    @Test func attributeNamesThatDecodeAlikeAreDuplicates() throws {
        // Two names that differ only in invalid UTF-8 bytes both read as "X-S\u{FFFD}YLE": the
        // second is a duplicate (found by the fuzzer when duplicates were compared as bytes).
        let bytes: [UInt8] =
            Array(
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00Z\n#EXTINF:6,\na.ts\n#EXT-X-DATERANGE:ID=\"d\",START-DATE=\"2024-05-01T12:00:00Z\",X-S"
                    .utf8)
            + [0xE6] + Array("YLE=\"a\",X-S".utf8) + [0xF6] + Array("YLE=\"b\"\n".utf8)
        let result = PlaylistParser.parse(Data(bytes), options: .lenient)
        let playlist = try #require(result.playlist)
        #expect(playlist.media?.dateRanges.first?.clientAttributes.map(\.value.text) == ["a"])
        #expect(result.diagnostics.contains { $0.message.contains("more than once") })
        #expect(PlaylistParser.parse(PlaylistWriter.write(playlist), options: .lenient).playlist == playlist)
    }

    @Test(arguments: inputs)
    func parsesAndRoundTrips(_ text: String) throws {
        for options in [ParseOptions.lenient, .strict] {
            let result = PlaylistParser.parse(text, options: options)
            guard result.errors.isEmpty, let playlist = result.playlist else { continue }
            let again = PlaylistParser.parse(PlaylistWriter.write(playlist), options: options)
            #expect(again.playlist == playlist)
        }
    }

    @Test func droppedKeyFormatIsWrittenAsNone() throws {
        let p = try #require(PlaylistParser.parse(Self.inputs[5]).playlist?.media)
        #expect(p.segments[1].keys.map(\.method) == [.aes128])
        #expect(PlaylistWriter.write(p).contains("#EXT-X-KEY:METHOD=NONE\n#EXT-X-KEY:METHOD=AES-128"))
    }
}
