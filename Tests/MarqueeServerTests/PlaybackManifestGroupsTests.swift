import Foundation
import MediaTesting
import Testing

@testable import MarqueeServer

/// A downloaded bundle can hold what real streams have: two audio groups with different codecs
/// and the same language, two subtitle groups, and a subtitle playlist longer than the video.
@Suite("Playback manifest of a bundle with several groups")
struct PlaybackManifestGroupsTests {
    static func media(_ seconds: [Double], ext: String) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(Int(seconds.max() ?? 1))\n"
        if ext == "m4s" { text += "#EXT-X-MAP:URI=\"init.mp4\"\n" }
        for (index, duration) in seconds.enumerated() { text += "#EXTINF:\(duration),\nseg\(index).\(ext)\n" }
        return text + "#EXT-X-ENDLIST\n"
    }

    @Test func eachGroupKeepsItsCodecIDsAreUniqueAndSubtitlesDoNotStretchTheItem() throws {
        let bundle = try temporaryDirectory()
        let master = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="a1/index.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ac3",NAME="English 5.1",LANGUAGE="en",URI="a2/index.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s1",NAME="English",LANGUAGE="en",URI="t1/index.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s2",NAME="English SDH",LANGUAGE="en",URI="t2/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,AUDIO="aac",SUBTITLES="s1"
            v1/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1400000,CODECS="avc1.64001f,ac-3",RESOLUTION=1280x720,AUDIO="ac3",SUBTITLES="s2"
            v1/index.m3u8

            """
        let files: [String: String] = [
            "master.m3u8": master, "v1/index.m3u8": Self.media([6, 6, 4], ext: "m4s"), "a1/index.m3u8": Self.media([6, 6, 4], ext: "m4s"),
            "a2/index.m3u8": Self.media([6, 6, 4], ext: "m4s"), "t1/index.m3u8": Self.media([6, 6, 4], ext: "vtt"),
            "t2/index.m3u8": Self.media([6, 6, 6, 6, 6], ext: "vtt"),
        ]
        for (path, text) in files {
            let url = bundle.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let manifest = try PlaybackManifest.build(assetID: "a", bundle: bundle, urlPrefix: "/media/a", playlist: "master.m3u8")
        #expect(manifest.audio.map(\.mimeType) == ["audio/mp4; codecs=\"mp4a.40.2\"", "audio/mp4; codecs=\"ac-3\""])
        #expect(Set(manifest.audio.map(\.id)).count == 2, "two English renditions, two IDs: \(manifest.audio.map(\.id))")
        #expect(Set(manifest.subtitles.map(\.id)).count == 2, "\(manifest.subtitles.map(\.id))")
        #expect(manifest.duration == 16, "the 30 s subtitle playlist does not make a 16 s item 30 s long")
    }
}
