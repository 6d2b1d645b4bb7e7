import Foundation
import MediaCore
import Testing

@testable import VisualAnalysis

/// Word boxes a double-click can rely on: Japanese words as wide as their characters (not the
/// whole line), English words up to their last glyph.
@Suite("Word boxes from character boxes", .serialized)
struct CharacterBoxTests {
    let analyzer = FrameTextAnalyzer(recognizer: TextRecognizer(threadCount: 1))

    /// The rightmost column with a dark pixel between rows `top` and `bottom` of the frame at `time`.
    func rightmostInk(_ clip: URL, at time: Double, rows top: Int, _ bottom: Int) async throws -> Int {
        var generator = ImageGenerator(asset: MediaAsset(url: clip))
        generator.setTolerance(.zero)
        let (image, _) = try await generator.image(at: MediaTime(seconds: time))
        var rightmost = 0
        for y in top..<bottom {
            for x in 0..<image.width where Int(image.pixels[(y * image.width + x) * 3]) < 100 { rightmost = max(rightmost, x) }
        }
        return rightmost
    }

    @Test("Each Japanese word's box covers its own characters, so words of a line do not overlap")
    func japaneseWordBoxes() async throws {
        let text = "灯台の明かりとパン屋の朝"
        let file = try TextFrames.textFile(text, name: "lighthouse.txt")
        let clip = try await TextFrames.clip(
            "lighthouse.mp4", size: "1280x720", color: "white",
            filters: "drawtext=fontfile=\(TextFrames.cjk):textfile=\(file):fontsize=48:fontcolor=black:x=80:y=300")
        let frame = try await analyzer.analyze(MediaAsset(url: clip), at: 0.5)
        let line = try #require(frame.text.lines.first { $0.text.contains("灯台") }, "read \(frame.text.text)")
        #expect(line.words.count >= 3, "words \(line.words.map(\.text))")
        for (word, next) in zip(line.words, line.words.dropFirst()) {
            #expect(word.box.maxX <= next.box.x + 2, "\(word.text) \(word.box) runs over \(next.text) \(next.box)")
        }
        for word in line.words {
            // One 48 px character is about 48 px wide; a word is never much wider than its
            // characters (with the gap to the next word), never the whole line.
            #expect(word.box.width <= 48 * (word.text.count + 1), "\(word.text) box \(word.box)")
        }
        let lighthouse = try #require(line.words.first { $0.text.hasPrefix("灯台") })
        #expect(abs(lighthouse.box.x - 80) <= 8, "灯台 box \(lighthouse.box)")
    }

    @Test("An English word's box reaches its last glyph")
    func englishLastGlyph() async throws {
        let clip = try await TextFrames.clip(
            "call-friday.mp4", size: "1280x720", color: "white",
            filters: "drawtext=fontfile=\(TextFrames.sans):text='Call me Friday':fontsize=48:fontcolor=black:x=100:y=300")
        let frame = try await analyzer.analyze(MediaAsset(url: clip), at: 0.5)
        let friday = try #require(frame.text.words.first { $0.text == "Friday" }, "read \(frame.text.text)")
        let ink = try await rightmostInk(clip, at: 0.5, rows: 290, 370)
        #expect(friday.box.maxX >= ink - 1, "Friday box \(friday.box) ends before the ink at x = \(ink)")
    }
}
