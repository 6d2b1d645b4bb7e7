public import Foundation
import Synchronization

/// Makes the sample clips a new library starts with, using ffmpeg's lavfi sources, so the
/// player works at once: a multi-variant clip with English and French audio and English
/// subtitles, a portrait clip, a clip whose frames show code as text, and a short ad.
public struct SampleMedia: Sendable {
    /// One generated clip and how the library should present it.
    public struct Clip: Sendable {
        public var file: URL
        public var title: String
        public var subtitle: String
        public var summary: String
        public var role: Asset.Role
    }

    let ffmpeg: ProcessRunner
    let fontDirectory: String

    public init(ffmpegPath: String = "/usr/bin/ffmpeg", fontDirectory: String = "/usr/share/fonts/truetype/dejavu") {
        ffmpeg = ProcessRunner(executable: ffmpegPath)
        self.fontDirectory = fontDirectory
    }

    static let codeSnippet = """
        import Playback

        var session = PlaybackSession(id: "demo")
        session.handle(.selectSpeed(rate: 1.5))
        let commands = session.handle(.play)
        // commands == [.play(rate: 1.5)]
        """

    /// Writes `file` with ffmpeg from `arguments` (inputs and codecs) unless it is there: into
    /// a `.part.mp4` beside it first, so an interrupted run never leaves a half-written clip.
    private func make(_ file: URL, _ arguments: [String]) async throws {
        guard !FileManager.default.fileExists(atPath: file.path) else { return }
        let part = file.path + ".part.mp4"
        try await ffmpeg.run(["-hide_banner", "-loglevel", "error", "-y"] + arguments + [part])
        try FileManager.default.moveItem(atPath: part, toPath: file.path)
    }

    /// Writes the clips into `folder` (skipping ones already there) and describes them.
    public func generate(into folder: URL) async throws -> [Clip] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let video = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "96k"]
        let mono = "\(fontDirectory)/DejaVuSansMono.ttf"
        let sans = "\(fontDirectory)/DejaVuSans-Bold.ttf"
        var clips: [Clip] = []

        let subtitles = folder.appendingPathComponent("tour-en.srt")
        try """
        1
        00:00:00,500 --> 00:00:05,000
        Welcome to Marquee.

        2
        00:00:05,500 --> 00:00:11,000
        This clip has English and French audio.

        3
        00:00:11,500 --> 00:00:18,000
        Swipe across the picture to scrub.

        4
        00:00:18,500 --> 00:00:29,500
        Press C to turn these subtitles off.

        """.write(to: subtitles, atomically: true, encoding: .utf8)
        let tour = folder.appendingPathComponent("tour.mp4")
        try await make(
            tour,
            [
                "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=24:duration=30",
                "-f", "lavfi", "-i", "sine=frequency=440:duration=30:sample_rate=48000",
                "-f", "lavfi", "-i", "sine=frequency=660:duration=30:sample_rate=48000",
                "-i", subtitles.path,
                "-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s",
            ] + video + [
                "-c:s", "mov_text",
                "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra", "-metadata:s:s:0", "language=eng",
                "-metadata", "title=Test Pattern Tour",
            ])
        clips.append(
            Clip(
                file: tour, title: "Test Pattern Tour", subtitle: "Sample · 720p and 360p",
                summary: "A 30-second test pattern in two sizes with English and French audio and English subtitles.",
                role: .feature))

        let portrait = folder.appendingPathComponent("portrait.mp4")
        try await make(
            portrait,
            [
                "-f", "lavfi", "-i", "testsrc=size=360x640:rate=24:duration=15",
                "-f", "lavfi", "-i", "sine=frequency=523:duration=15:sample_rate=48000",
                "-vf", "drawtext=fontfile=\(sans):text='Portrait':fontsize=40:fontcolor=white:box=1:boxcolor=black@0.6:x=(w-tw)/2:y=h*0.8",
            ] + video + ["-metadata", "title=Portrait Clip"])
        clips.append(
            Clip(
                file: portrait, title: "Portrait Clip", subtitle: "Sample · 9:16",
                summary: "A 15-second portrait clip, shown as portrait.", role: .feature))

        let code = folder.appendingPathComponent("code.mp4")
        let snippet = folder.appendingPathComponent("snippet.txt")
        try Self.codeSnippet.write(to: snippet, atomically: true, encoding: .utf8)
        try await make(
            code,
            [
                "-f", "lavfi", "-i", "color=c=0x1e1e2e:size=1280x720:rate=24:duration=20",
                "-f", "lavfi", "-i", "anoisesrc=color=brown:amplitude=0.05:duration=20:sample_rate=48000",
                "-vf",
                "drawtext=fontfile=\(mono):textfile=\(snippet.path):fontsize=30:fontcolor=0xcdd6f4:line_spacing=14:x=80:y=140,"
                    + "drawtext=fontfile=\(sans):text='%{pts\\:hms}':fontsize=24:fontcolor=0x89b4fa:x=w-tw-40:y=h-60",
            ] + video + ["-metadata", "title=Code Walkthrough"])
        clips.append(
            Clip(
                file: code, title: "Code Walkthrough", subtitle: "Sample · text on screen",
                summary: "Swift code shown as text in every frame, with an ad break at 8 seconds.", role: .feature))

        let ad = folder.appendingPathComponent("ad.mp4")
        try await make(
            ad,
            [
                "-f", "lavfi", "-i", "smptebars=size=1280x720:rate=24:duration=5",
                "-f", "lavfi", "-i", "sine=frequency=880:duration=5:sample_rate=48000",
                "-vf", "drawtext=fontfile=\(sans):text='Advertisement':fontsize=64:fontcolor=white:box=1:boxcolor=black@0.7:x=(w-tw)/2:y=(h-th)/2",
            ] + video + ["-metadata", "title=Sample Ad"])
        clips.append(
            Clip(
                file: ad, title: "Sample Ad", subtitle: "Sample · interstitial",
                summary: "A 5-second ad that plays inside Code Walkthrough.", role: .interstitial))
        return clips
    }
}

extension MediaLibrary {
    /// Whether sample clips are on their way into an empty library (`addSamplesIfEmpty` has
    /// started and not finished): an empty shelf then says they are coming, and otherwise
    /// says how to add media (a server started with `--no-samples` makes none).
    public var isMakingSamples: Bool { makingSamples.withLock { $0 } }

    /// On an empty library: generates the sample clips, adds them with their titles, and
    /// schedules the ad into the code clip. Does nothing when the library has assets.
    public func addSamplesIfEmpty(samples: SampleMedia = SampleMedia()) async throws {
        makingSamples.withLock { $0 = true }
        defer { makingSamples.withLock { $0 = false } }
        guard try await store.assetCount() == 0 else { return }
        let clips = try await samples.generate(into: location.samplesDirectory)
        guard try await store.assetCount() == 0 else { return }
        var ids: [String: String] = [:]
        for clip in clips {
            let asset = Asset(
                title: clip.title, subtitle: clip.subtitle, summary: clip.summary,
                sourcePath: clip.file.path, role: clip.role)
            _ = try await store.insert(asset, job: true)
            ids[clip.file.lastPathComponent] = asset.id
        }
        if let code = ids["code.mp4"], let ad = ids["ad.mp4"] {
            try await store.schedule(ScheduledInterstitial(assetID: code, interstitialAssetID: ad, time: 8))
        }
        await worker.wake()
    }
}
