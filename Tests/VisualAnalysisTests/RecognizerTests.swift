import Foundation
import MediaCore
import Testing

@testable import VisualAnalysis

@Suite("The recogniser's engines and cancellation", .serialized)
struct RecognizerTests {
    /// A white picture with a black bar pattern that looks like lines of text.
    static func busyImage(width: Int = 1920, height: Int = 1080) -> VideoImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 3)
        for y in 0..<height where (y / 6) % 3 == 0 {
            for x in 0..<width where (x / 5) % 2 == 0 || (x * 7 + y) % 11 == 0 {
                let o = (y * width + x) * 3
                pixels[o] = 0
                pixels[o + 1] = 0
                pixels[o + 2] = 0
            }
        }
        return VideoImage(width: width, height: height, pixels: pixels)
    }

    @Test("Engines are loaded once and reused, never one per frame")
    func pooled() async throws {
        let recognizer = TextRecognizer(threadCount: 2)
        let image = VideoImage(width: 64, height: 32, pixels: [UInt8](repeating: 255, count: 64 * 32 * 3))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 { group.addTask { _ = try await recognizer.recognize(image) } }
            try await group.waitForAll()
        }
        #expect(recognizer.enginesLoaded >= 1 && recognizer.enginesLoaded <= 2)
    }

    @Test("Cancelling a recognition ends it promptly with CancellationError, and the engine is reused after")
    func cancellation() async throws {
        // A full-HD frame dense with code: reading it all takes a good while.
        let text = Array(repeating: TextFrames.codeSnippet, count: 3).joined(separator: "\n")
        let file = try TextFrames.textFile(text, name: "dense.txt")
        let clip = try await TextFrames.clip(
            "dense.mp4", size: "1920x1080", color: "white",
            filters: "drawtext=fontfile=\(TextFrames.mono):textfile=\(file):fontsize=16:fontcolor=black:line_spacing=4:x=20:y=10,"
                + "drawtext=fontfile=\(TextFrames.mono):textfile=\(file):fontsize=16:fontcolor=black:line_spacing=4:x=980:y=10")
        var generator = ImageGenerator(asset: MediaAsset(url: clip))
        generator.setTolerance(.zero)
        let image = try await generator.image(at: MediaTime(seconds: 0.5)).image
        let recognizer = TextRecognizer(threadCount: 1)
        // Load the engine first, so the timed run below is reading alone: loading the language
        // models can take longer than reading the frame, and a timing that included it let the
        // cancelled run finish before it was cancelled.
        _ = try await recognizer.recognize(Self.busyImage(width: 64, height: 64))
        let uncancelled = ContinuousClock.now
        let all = try await recognizer.recognize(image)
        let full = ContinuousClock.now - uncancelled
        try #require(all.lines.count > 10, "the dense frame read as \(all.lines.count) lines")

        let completedBefore = recognizer.readsCompleted
        #expect(completedBefore >= 2, "the reads so far ran to the end")
        let task = Task { try await recognizer.recognize(image) }
        // Early in the run (under load the first, timed run can be several times slower than this one):
        // real time, because the cancel must land partway through a read, which nothing signals.
        try await Task.sleep(for: min(full / 5, .milliseconds(300)))
        let cancelledAt = ContinuousClock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        let after = ContinuousClock.now - cancelledAt
        // Tesseract itself stopped short of the end of the frame (its progress below 100),
        // which, unlike the time it took, does not depend on how busy the machine is.
        #expect(
            recognizer.readsCompleted == completedBefore,
            "Tesseract read on after the cancel (it ended \(after) after it; a whole read takes \(full))")
        // The engine that was stopped is put back and reads the next frame normally.
        let again = try await recognizer.recognize(image)
        #expect(again.lines.count == all.lines.count)
        #expect(recognizer.enginesLoaded == 1)
        #expect(recognizer.readsCompleted > completedBefore)
    }

    @Test("A recognition cancelled before it starts never runs")
    func cancelledBeforeStart() async throws {
        let recognizer = TextRecognizer(threadCount: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await recognizer.recognize(Self.busyImage(width: 64, height: 64))
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(recognizer.enginesLoaded == 0)
    }
}

@Suite("The frame-text store: cache and search")
struct FrameTextStoreTests {
    func store() throws -> FrameTextStore {
        try FrameTextStore(url: FileManager.default.temporaryDirectory.appendingPathComponent("frame-text-\(UUID().uuidString).sqlite"))
    }

    func frame(_ time: Double, _ words: [String]) -> FrameText {
        let line = TextLine(
            box: TextBox(x: 0, y: 0, width: 10, height: 10), confidence: 0.9,
            words: words.enumerated().map {
                RecognizedWord(
                    text: $1, box: TextBox(x: $0 * 10, y: 0, width: 9, height: 10),
                    confidence: 0.9, spaceAfter: $0 < words.count - 1)
            })
        return FrameText(
            frameTime: time, frameDuration: 1.0 / 24,
            text: RecognizedText(
                frameSize: PixelSize(width: 100, height: 10), rotation: 0,
                blocks: [TextBlock(box: line.box, lines: [line])]))
    }

    @Test("A cached frame answers for any time while it is on screen, and only then")
    func cache() async throws {
        let store = try store()
        try await store.cache(frame(2.0, ["hello", "world"]), assetID: "a")
        #expect(try await store.cachedFrame(assetID: "a", at: 2.0)?.text.text == "hello world")
        #expect(try await store.cachedFrame(assetID: "a", at: 2.03)?.frameTime == 2.0)
        #expect(try await store.cachedFrame(assetID: "a", at: 2.05) == nil)  // the next frame
        #expect(try await store.cachedFrame(assetID: "a", at: 1.99) == nil)
        #expect(try await store.cachedFrame(assetID: "b", at: 2.0) == nil)
    }

    @Test("Search finds English and Japanese frame text, short queries too, and forgets an asset")
    func search() async throws {
        let store = try store()
        try await store.replaceIndex(
            assetID: "code",
            with: [
                .init(time: 0.5, endTime: 20, text: "import Playback\nsession.handle(.selectSpeed(rate: 1.5))")
            ])
        try await store.replaceIndex(assetID: "ja", with: [.init(time: 3, endTime: 9, text: "動画を一時停止すると文字を選択できます")])
        let english = try await store.search("selectspeed")
        #expect(english.map(\.assetID) == ["code"])
        #expect(english.first?.text == "session.handle(.selectSpeed(rate: 1.5))")
        #expect(english.first?.time == 0.5)
        #expect(try await store.search("一時停止").map(\.assetID) == ["ja"])
        #expect(try await store.search("文字").map(\.assetID) == ["ja"])  // two characters: below a trigram
        #expect(try await store.search("nowhere").isEmpty)
        #expect(try await store.search("\"quoted").isEmpty)
        #expect(try await store.isIndexed(assetID: "code"))
        try await store.forget(assetID: "code")
        #expect(try await store.search("selectSpeed").isEmpty)
        #expect(try await store.isIndexed(assetID: "code") == false)
    }
}
