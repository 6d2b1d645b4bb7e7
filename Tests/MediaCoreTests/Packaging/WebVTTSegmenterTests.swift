import Foundation
import HLS
import Testing

@testable import MediaCore

/// Subtitles as HLS clients read them: segmented WebVTT from FFmpeg's encoder and muxer, with
/// a timestamp map, styling kept, and cues that span a boundary in both segments.
@Suite struct WebVTTSegmenterTests {
    /// The WebVTT muxer's cue time: `mm:ss.ttt` below an hour.
    static func cueTime(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d.%03d", milliseconds / 60_000, milliseconds / 1000 % 60, milliseconds % 1000)
    }

    @Test func aLongTrackIsSegmentedWithSpanningCuesRepeatedAndStylingKept() async throws {
        let directory = MediaFixtures.shared.scratch("webvtt-segments")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let srt = (directory as NSString).appendingPathComponent("long.srt")
        try """
        1
        00:00:01,000 --> 00:00:02,000
        <i>Once</i> upon a time

        2
        00:00:05,500 --> 00:00:06,500
        across the boundary

        3
        00:00:13,000 --> 00:00:14,000
        the end & more

        """.write(toFile: srt, atomically: true, encoding: .utf8)
        let clip = (directory as NSString).appendingPathComponent("long.mkv")
        try FFmpegTool.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=96x54:r=10:d=15", "-i", srt, "-map", "0:v", "-map", "1:s",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:s", "srt", clip,
        ])
        let asset = MediaAsset(path: clip)
        let tracks = try await asset.load(.tracks)
        let subtitle = try #require(tracks.first { $0.mediaType == .subtitle })
        let out = (directory as NSString).appendingPathComponent("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let segments = try await MediaThreadPool.shared.run { flag in
            try WebVTTSegmenter.write(
                source: asset.source, streamIndex: subtitle.id, duration: 15, segmentDuration: 6,
                into: out, flag: flag)
        }
        #expect(segments.map(\.name) == ["subtitles-00001.vtt", "subtitles-00002.vtt", "subtitles-00003.vtt"])
        #expect(segments.map(\.duration) == [6, 6, 3])
        let texts = try segments.map { try String(contentsOfFile: (out as NSString).appendingPathComponent($0.name), encoding: .utf8) }
        for text in texts { #expect(text.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:0\n\n"), "\(text)") }
        #expect(texts[0].contains("00:01.000 --> 00:02.000\n<i>Once</i> upon a time"), "\(texts[0])")
        // On screen from 5.5 s to 6.5 s: in the first segment and again in the second, with its full times.
        #expect(texts[0].contains("00:05.500 --> 00:06.500\nacross the boundary"))
        #expect(texts[1].contains("00:05.500 --> 00:06.500\nacross the boundary"))
        #expect(!texts[1].contains("Once") && !texts[2].contains("boundary"))
        #expect(texts[2].contains("00:13.000 --> 00:14.000\nthe end &amp; more"), "\(texts[2])")
    }
}
