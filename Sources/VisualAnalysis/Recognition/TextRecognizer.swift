import Foundation
import MediaCore
import Synchronization

/// Recognises text in video frames with Tesseract, in English and Japanese, on threads of
/// its own (never Swift's cooperative pool), reusing a small pool of loaded engines.
///
/// Each `recognize` call takes an idle engine (or loads one, up to `threadCount`), runs on a
/// dedicated `MediaThreadPool`, and puts the engine back. Cancelling the calling task stops
/// Tesseract between words and ends the call with `CancellationError`.
public final class TextRecognizer: Sendable {
    /// The process-wide recogniser: English and Japanese, two threads.
    public static let shared = TextRecognizer()

    /// Tesseract language models, joined with "+" ("jpn+eng").
    public let languages: String
    public let preprocessor: FramePreprocessor
    /// Lines whose mean confidence is below this are dropped (patterns and noise read as text).
    public let minimumLineConfidence: Double
    private let dataPath: String?
    private let threads: MediaThreadPool
    private let idle = Mutex<[TesseractEngine]>([])
    private let created = Atomic<Int>(0)

    public init(
        languages: [String] = ["eng", "jpn"], preprocessor: FramePreprocessor = FramePreprocessor(),
        minimumLineConfidence: Double = 0.45, threadCount: Int = 2, dataPath: String? = nil
    ) {
        self.languages = languages.joined(separator: "+")
        self.preprocessor = preprocessor
        self.minimumLineConfidence = minimumLineConfidence
        self.dataPath = dataPath
        threads = MediaThreadPool(threadCount: max(1, threadCount), name: "marquee.ocr")
    }

    /// A recogniser for background work (indexing for search): one engine on one thread at
    /// the lowest scheduling priority.
    public init(backgroundNamed name: String) {
        languages = "eng+jpn"
        preprocessor = FramePreprocessor()
        minimumLineConfidence = 0.45
        dataPath = nil
        threads = BackgroundThreads.pool(name: name)
    }

    /// How many engines have been loaded so far (they are reused, so this stays at most the
    /// thread count however many frames are read).
    public var enginesLoaded: Int { created.load(ordering: .relaxed) }

    /// The text in `image`, with boxes in `image`'s pixels.
    public func recognize(_ image: VideoImage) async throws -> RecognizedText {
        let preprocessor = self.preprocessor
        let minimum = minimumLineConfidence
        return try await threads.run { [self] flag in
            try flag.check()
            let prepared = preprocessor.prepare(image)
            let engine = try checkOut()
            defer { checkIn(engine) }
            let blocks = try engine.recognize(prepared, binarization: preprocessor.binarization, flag: flag)
            return RecognizedText(
                frameSize: image.size, rotation: 0,
                blocks: Self.filtered(blocks, scale: prepared.scale, minimumLineConfidence: minimum))
        }
    }

    private func checkOut() throws -> TesseractEngine {
        if let engine = idle.withLock({ $0.popLast() }) { return engine }
        created.add(1, ordering: .relaxed)
        return try TesseractEngine(languages: languages, dataPath: dataPath)
    }

    private func checkIn(_ engine: TesseractEngine) {
        idle.withLock { $0.append(engine) }
    }

    /// Drops unsure lines and maps boxes from the enlarged picture back to the frame.
    static func filtered(_ blocks: [TextBlock], scale: Double, minimumLineConfidence: Double) -> [TextBlock] {
        func frameBox(_ box: TextBox) -> TextBox {
            guard scale != 1 else { return box }
            let x = Int((Double(box.x) / scale).rounded(.down))
            let y = Int((Double(box.y) / scale).rounded(.down))
            return TextBox(
                x: x, y: y, width: Int((Double(box.maxX) / scale).rounded(.up)) - x,
                height: Int((Double(box.maxY) / scale).rounded(.up)) - y)
        }
        return blocks.compactMap { block in
            let lines = block.lines.compactMap { line -> TextLine? in
                guard line.confidence >= minimumLineConfidence,
                    line.text.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) })
                else { return nil }
                let words = line.words.map { word in
                    RecognizedWord(text: word.text, box: frameBox(word.box), confidence: word.confidence, spaceAfter: word.spaceAfter)
                }
                return TextLine(box: frameBox(line.box), confidence: line.confidence, words: words)
            }
            guard let first = lines.first else { return nil }
            return TextBlock(box: lines.dropFirst().reduce(first.box) { $0.union($1.box) }, lines: lines)
        }
    }
}
