import Foundation
import MediaCore
import Testing

@testable import VisualAnalysis

/// What Live Text reads from frames with known drawn text, and where it says the words are.
@Suite("Text recognition on video frames", .serialized)
struct RecognitionTests {
    let analyzer = FrameTextAnalyzer(recognizer: TextRecognizer(threadCount: 1))

    @Test("English code drawn light on dark reads with under 2 % character errors, line by line")
    func code() async throws {
        let file = try TextFrames.textFile(TextFrames.codeSnippet, name: "snippet.txt")
        let clip = try await TextFrames.clip(
            "code.mp4", size: "1280x720", color: "0x1e1e2e",
            filters: "drawtext=fontfile=\(TextFrames.mono):textfile=\(file):fontsize=30:fontcolor=0xcdd6f4:line_spacing=14:x=80:y=140")
        let frame = try await analyzer.analyze(MediaAsset(url: clip), at: 1.0)
        let expected = TextFrames.codeSnippet.split(separator: "\n").map(String.init)
        let lines = frame.text.lines.map(\.text)
        #expect(lines == expected, "read \(lines)")
        let cer = characterErrorRate(lines.joined(separator: "\n"), expected.joined(separator: "\n"))
        #expect(cer < 0.02, "character error rate \(cer)")
        // The listing starts at x = 80, y = 140 and each line is 30 px + 14 px apart.
        let first = try #require(frame.text.lines.first)
        #expect(abs(first.box.x - 80) <= 6, "first line box \(first.box)")
        #expect(first.box.y >= 136 && first.box.y <= 150, "first line box \(first.box)")
        #expect(frame.text.frameSize == PixelSize(width: 1280, height: 720))
        #expect(frame.text.rotation == 0)
        #expect(frame.frameTime == 1.0)
    }

    @Test("Words get boxes where they were drawn")
    func wordBoxes() async throws {
        let words: [(text: String, x: Int, y: Int)] = [("Marquee", 100, 80), ("frame", 700, 300), ("analysis", 300, 560)]
        let filters = words.map { "drawtext=fontfile=\(TextFrames.sans):text=\($0.text):fontsize=48:fontcolor=black:x=\($0.x):y=\($0.y)" }
            .joined(separator: ",")
        let clip = try await TextFrames.clip("words.mp4", size: "1280x720", color: "white", filters: filters)
        let frame = try await analyzer.analyze(MediaAsset(url: clip), at: 0.5)
        for drawn in words {
            let word = try #require(frame.text.words.first(where: { $0.text == drawn.text }), "\(drawn.text) not read: \(frame.text.text)")
            // drawtext puts the top of the font's line box at y; glyphs sit inside 48 px below it.
            #expect(abs(word.box.x - drawn.x) <= 6, "\(drawn.text) box \(word.box) drawn at \(drawn.x),\(drawn.y)")
            #expect(word.box.y >= drawn.y - 2 && word.box.maxY <= drawn.y + 60, "\(drawn.text) box \(word.box) drawn at \(drawn.x),\(drawn.y)")
            #expect(word.box.width > 48 * drawn.text.count / 3 && word.box.width < 48 * drawn.text.count, "\(drawn.text) box \(word.box)")
            #expect(word.confidence > 0.8)
        }
    }

    @Test("A Japanese sentence reads with under 5 % character errors and no spaces put in")
    func japanese() async throws {
        let file = try TextFrames.textFile(TextFrames.japanese, name: "ja.txt")
        let clip = try await TextFrames.clip(
            "ja.mp4", size: "1280x720", color: "white",
            filters: "drawtext=fontfile=\(TextFrames.cjk):textfile=\(file):fontsize=44:fontcolor=black:x=80:y=300")
        let frame = try await analyzer.analyze(MediaAsset(url: clip), at: 0.5)
        let line = try #require(frame.text.lines.first)
        #expect(!line.text.contains(" "), "spaces inserted: \(line.text)")
        let cer = characterErrorRate(line.text, TextFrames.japanese)
        #expect(cer < 0.05, "read \(line.text), character error rate \(cer)")
        #expect(abs(line.box.x - 80) <= 8 && line.box.y >= 296 && line.box.maxY <= 360, "line box \(line.box)")
    }

    @Test("Light text on a dark picture is read (inverted before recognition)")
    func lightOnDark() async throws {
        let clip = try await TextFrames.clip(
            "dark.mp4", size: "1280x720", color: "black",
            filters: "drawtext=fontfile=\(TextFrames.sans):text='Subscribe for more videos':fontsize=40:fontcolor=white:x=200:y=320")
        let frame = try await analyzer.analyze(MediaAsset(url: clip), at: 0.5)
        #expect(frame.text.lines.map(\.text) == ["Subscribe for more videos"], "read \(frame.text.text)")
    }

    @Test("Small text in a small frame is read (enlarged before recognition)")
    func smallText() async throws {
        let clip = try await TextFrames.clip(
            "small.mp4", size: "480x270", color: "white",
            filters: "drawtext=fontfile=\(TextFrames.sans):text='Chapter 3 Recipes':fontsize=11:fontcolor=black:x=20:y=200")
        let frame = try await analyzer.analyze(MediaAsset(url: clip), at: 0.5)
        let line = try #require(frame.text.lines.first, "nothing read")
        #expect(characterErrorRate(line.text, "Chapter 3 Recipes") < 0.1, "read \(line.text)")
        // Boxes are in the frame's own pixels, not the enlarged picture's.
        #expect(line.box.x >= 16 && line.box.x <= 26 && line.box.maxY <= 216, "line box \(line.box)")
        #expect(frame.text.frameSize == PixelSize(width: 480, height: 270))
    }

    @Test("Portrait phone video stored sideways: text is read upright and boxes are in the stored frame's pixels")
    func rotated() async throws {
        // The picture a viewer sees is 360×640 with the word at (40, 100); it is stored
        // turned a quarter counter-clockwise (640×360) with a 90° display rotation.
        let stored = try await TextFrames.clip(
            "sideways.mp4", size: "360x640", color: "white",
            filters: "drawtext=fontfile=\(TextFrames.sans):text='Portrait':fontsize=48:fontcolor=black:x=40:y=100,transpose=2")
        let asset = MediaAsset(url: try TextFrames.withDisplayRotation90(stored, codedHeight: 360))
        let tracks = try await asset.load(.tracks)
        let track = try #require(tracks.first(where: { $0.mediaType == .video }))
        try #require(track.displayRotation == 90, "ffmpeg did not tag the rotation (\(track.displayRotation))")
        let frame = try await analyzer.analyze(asset, at: 0.5)
        let word = try #require(frame.text.words.first(where: { $0.text == "Portrait" }), "read \(frame.text.text)")
        #expect(frame.text.rotation == 90)
        #expect(frame.text.frameSize == PixelSize(width: 640, height: 360))
        // Upright (ux, uy) is stored at (uy, 359 − ux): the word's left edge at ux ≈ 40 is
        // near the stored frame's bottom, its top at uy ≈ 100 near x = 100.
        #expect(word.box.width < word.box.height, "a sideways word is tall in the stored frame: \(word.box)")
        #expect(word.box.x >= 98 && word.box.x <= 125, "box \(word.box)")
        #expect(abs(word.box.maxY - (360 - 40)) <= 6, "box \(word.box)")
    }

    @Test("A frame of a test pattern with no text finds nothing")
    func noText() async throws {
        let clip = try await TextFrames.clip("plain.mp4", size: "640x360", color: "0x336699", filters: "null")
        let frame = try await analyzer.analyze(MediaAsset(url: clip), at: 0.5)
        #expect(frame.text.isEmpty, "read \(frame.text.text)")
    }

    @Test("The frame on screen is read, not the nearest keyframe")
    func exactFrame() async throws {
        // One keyframe at the start; the number drawn changes every frame.
        let clip = TextFrames.directory.appendingPathComponent("counter.mp4")
        if !FileManager.default.fileExists(atPath: clip.path) {
            try await TextFrames.run(
                "/usr/bin/ffmpeg",
                [
                    "-hide_banner", "-loglevel", "error", "-y",
                    "-f", "lavfi", "-i", "color=c=white:size=640x360:rate=24:duration=3",
                    "-vf", "drawtext=fontfile=\(TextFrames.sans):text='Frame %{frame_num}':fontsize=48:fontcolor=black:x=40:y=120",
                    "-c:v", "libx264", "-preset", "ultrafast", "-g", "240", "-pix_fmt", "yuv420p", clip.path,
                ])
        }
        let frame = try await analyzer.analyze(MediaAsset(url: clip), at: 50.0 / 24 + 0.01)
        #expect(frame.text.text == "Frame 50", "read \(frame.text.text)")
        #expect(abs(frame.frameTime - 50.0 / 24) < 0.001)
        #expect(abs(frame.frameDuration - 1.0 / 24) < 0.0001)
    }
}
