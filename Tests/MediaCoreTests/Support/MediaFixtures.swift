import Foundation
import MediaTesting

/// Test media generated once per test run with the ffmpeg CLI into a temporary directory.
///
/// Each fixture is made on first use; concurrent tests asking for the same one share the
/// generation.
actor MediaFixtures {
    static let shared = MediaFixtures()

    let directory: URL
    private var made: [String: Task<String, any Error>] = [:]

    /// This test process's media directory; removed when the process exits.
    static let directoryURL = FileManager.default.temporaryDirectory
        .appendingPathComponent("marquee-mediacore-tests-\(ProcessInfo.processInfo.processIdentifier)")

    init() {
        directory = Self.directoryURL
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: MediaFixtures.directoryURL) }
    }

    /// A path for a scratch file under the fixture directory.
    nonisolated func scratch(_ name: String) -> String {
        directory.appendingPathComponent(UUID().uuidString + "-" + name).path
    }

    private func make(_ name: String, _ arguments: @escaping @Sendable (String) -> [String]) async throws -> String {
        if let task = made[name] { return try await task.value }
        let path = directory.appendingPathComponent(name).path
        let task = Task.detached {
            try await FFmpegTool.ffmpegOffPool(arguments(path))
            return path
        }
        made[name] = task
        return try await task.value
    }

    /// Grey level that encodes frame number N: luma 16 + (N mod 32) * 6.
    static func expectedGrey(frame: Int) -> Double { Double(frame % 32) * 6 * 255 / 219 }

    /// 10 s, 320×240, 30 fps H.264 (2 s GOP, B-frames) + AAC; frame N is a flat grey of
    /// level `expectedGrey(N)`. Tagged with a title and description.
    func counter() async throws -> String {
        try await make("counter.mp4") { out in
            [
                "-f", "lavfi", "-i", "nullsrc=s=320x240:r=30:d=10,format=yuv420p,geq=lum='16+mod(N\\,32)*6':cb=128:cr=128",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10",
                "-c:v", "libx264", "-preset", "ultrafast", "-x264-params", "keyint=60:min-keyint=60:scenecut=0:bframes=2",
                "-c:a", "aac", "-b:a", "96k",
                "-metadata", "title=Counting Frames", "-metadata", "description=A test of frame accuracy",
                "-metadata", "artist=Marquee Tests", "-movflags", "+faststart", out,
            ]
        }
    }

    /// Variable frame rate: 30 fps for the first 2 s, then every third frame (10 fps).
    func variableFrameRate() async throws -> String {
        try await make("vfr.mp4") { out in
            [
                "-f", "lavfi", "-i", "nullsrc=s=160x120:r=30:d=6,format=yuv420p,geq=lum='16+mod(N\\,32)*6':cb=128:cr=128",
                "-vf", "select='lt(n\\,60)+not(mod(n\\,3))'", "-fps_mode", "vfr",
                "-c:v", "libx264", "-preset", "ultrafast", "-x264-params", "keyint=30:min-keyint=30:scenecut=0", out,
            ]
        }
    }

    /// A "phone" video shot sideways: 320×180 pixels, top half red, bottom half blue, with a
    /// 90° display rotation in the track header's matrix (as phones write it).
    func rotatedPhone() async throws -> String {
        let plain = try await make("phone-unrotated.mp4") { out in
            [
                "-f", "lavfi", "-i", "color=c=red:s=320x90:r=30:d=2",
                "-f", "lavfi", "-i", "color=c=blue:s=320x90:r=30:d=2",
                "-filter_complex", "[0][1]vstack,format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast", out,
            ]
        }
        let rotated = directory.appendingPathComponent("phone-rotated.mp4")
        if !FileManager.default.fileExists(atPath: rotated.path) {
            try DisplayRotation.quarterTurnClockwise(URL(fileURLWithPath: plain), codedHeight: 180, to: rotated)
        }
        return rotated.path
    }

    /// 10-bit HEVC (Main 10) tagged as PQ / BT.2020, 2 s.
    func hevc10bit() async throws -> String {
        try await make("hevc-10bit.mp4") { out in
            [
                "-f", "lavfi", "-i", "testsrc2=s=256x144:r=24:d=2",
                "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le", "-x265-params", "log-level=error",
                "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc",
                "-tag:v", "hvc1", out,
            ]
        }
    }

    /// Audio only: 3 s AAC stereo at 44.1 kHz in M4A with a title.
    func audioOnly() async throws -> String {
        try await make("audio-only.m4a") { out in
            [
                "-f", "lavfi", "-i", "sine=frequency=330:sample_rate=44100:duration=3", "-ac", "2",
                "-c:a", "aac", "-b:a", "128k", "-metadata", "title=Only Sound", out,
            ]
        }
    }

    /// Video only: 2 s H.264 with no audio track.
    func videoOnly() async throws -> String {
        try await make("video-only.mp4") { out in
            [
                "-f", "lavfi", "-i", "testsrc2=s=192x108:r=25:d=2", "-c:v", "libx264", "-preset", "ultrafast",
                "-pix_fmt", "yuv420p", out,
            ]
        }
    }

    /// Odd picture size: 317×243 H.264 (4:4:4 so odd sizes are legal), 1 s.
    func oddSize() async throws -> String {
        try await make("odd-317x243.mp4") { out in
            [
                "-f", "lavfi", "-i", "testsrc=s=317x243:r=25:d=1", "-c:v", "libx264", "-preset", "ultrafast",
                "-pix_fmt", "yuv444p", out,
            ]
        }
    }

    /// 200×112 4:2:0 H.264, 1 s: a width that is not a multiple of 16, which swscale's
    /// unscaled YUV→RGB path writes past in whole blocks.
    func narrow420() async throws -> String {
        try await make("narrow-200x112.mp4") { out in
            [
                "-f", "lavfi", "-i", "testsrc=s=200x112:r=25:d=1", "-c:v", "libx264", "-preset", "ultrafast",
                "-pix_fmt", "yuv420p", out,
            ]
        }
    }

    /// Anamorphic: 200×200 pixels with a 2:1 pixel aspect (shown 400×200), 1 s.
    func anamorphic() async throws -> String {
        try await make("anamorphic.mkv") { out in
            [
                "-f", "lavfi", "-i", "testsrc2=s=200x200:r=25:d=1", "-vf", "setsar=2/1", "-c:v", "libx264",
                "-preset", "ultrafast", "-pix_fmt", "yuv420p", out,
            ]
        }
    }

    /// A phone's portrait recording: 15 s of 720×1280 H.264 (x264's default B-frames) + AAC,
    /// stored upright (no display matrix), as the crash report made it.
    func portrait() async throws -> String {
        try await make("portrait.mp4") { out in
            [
                "-f", "lavfi", "-i", "testsrc=size=720x1280:rate=30:duration=15",
                "-f", "lavfi", "-i", "sine=frequency=550:duration=15",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", out,
            ]
        }
    }

    /// Matroska with English stereo and French 5.1 audio, English and German SubRip subtitles,
    /// a title, a description and two chapters.
    func multiLanguage() async throws -> String {
        let srt = directory.appendingPathComponent("subs.srt").path
        let metadata = directory.appendingPathComponent("chapters.txt").path
        try "1\n00:00:00,500 --> 00:00:01,500\nHello\n\n2\n00:00:02,000 --> 00:00:03,000\nWorld\n".write(toFile: srt, atomically: true, encoding: .utf8)
        try
            ";FFMETADATA1\ntitle=Two Languages\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=2000\ntitle=Opening\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=2000\nEND=4000\ntitle=Ending\n"
            .write(toFile: metadata, atomically: true, encoding: .utf8)
        return try await make("multi-language.mkv") { out in
            [
                "-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=4",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
                "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=4",
                "-i", srt, "-i", srt, "-i", metadata,
                "-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s", "-map", "4:s", "-map_metadata", "5", "-map_chapters", "5",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                "-c:a:0", "aac", "-ac:a:0", "2", "-c:a:1", "aac", "-ac:a:1", "6",
                "-c:s", "srt",
                "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra",
                "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=ger",
                "-metadata", "DESCRIPTION=Audio in two languages", out,
            ]
        }
    }

    /// MP3 with ID3 tags (title, artist, subtitle, year) and attached cover art.
    func taggedMP3() async throws -> String {
        try await make("tagged.mp3") { out in
            [
                "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=44100:duration=2",
                "-f", "lavfi", "-i", "color=c=green:s=64x64:d=1", "-frames:v", "1",
                "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-c:v", "mjpeg",
                "-disposition:v", "attached_pic", "-id3v2_version", "3",
                "-metadata", "title=Tagged Song", "-metadata", "artist=The Testers",
                "-metadata", "TIT3=The Subtitle", "-metadata", "date=2024", out,
            ]
        }
    }
}
