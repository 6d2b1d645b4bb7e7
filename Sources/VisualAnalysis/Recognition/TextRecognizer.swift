import Foundation
public import MediaCore
import Synchronization

/// Recognises text in video frames with Tesseract, in English and Japanese, on threads of
/// its own (never Swift's cooperative pool), reusing a small pool of loaded engines.
///
/// Each `recognize` call takes an idle engine (or loads one, up to `threadCount`), runs on a
/// dedicated `MediaThreadPool`, and puts the engine back. Cancelling the calling task stops
/// Tesseract between words and ends the call with `CancellationError`.
///
/// The frame is read with the first language alone ("eng"); only the lines it is unsure of
/// (confidence under `retryBelowConfidence`: Japanese read as English scores 0.01–0.4, code
/// 0.9 and up; or a word under 0.6) are read again with the other languages first
/// ("jpn+eng"), and the surer reading is kept. Reading every line with both models, as
/// Tesseract's "eng+jpn" does for every word outside its English dictionary (all code), cost
/// a third more per frame.
public final class TextRecognizer: Sendable {
    /// The process-wide recogniser: English and Japanese, two threads.
    public static let shared = TextRecognizer()

    /// Tesseract language models, joined with "+" ("jpn+eng").
    public let languages: String
    public let preprocessor: FramePreprocessor
    /// Lines whose mean confidence is below this are dropped (patterns and noise read as text).
    public let minimumLineConfidence: Double
    /// Lines the first language reads with a lower confidence are read again with the others.
    public let retryBelowConfidence: Double
    private let dataPath: String?
    private let threads: MediaThreadPool
    private let idle = Mutex<[EngineSet]>([])
    private let created = Atomic<Int>(0)

    public init(
        languages: [String] = ["eng", "jpn"], preprocessor: FramePreprocessor = FramePreprocessor(),
        minimumLineConfidence: Double = 0.45, retryBelowConfidence: Double = 0.7, threadCount: Int = 2, dataPath: String? = nil
    ) {
        self.languages = languages.joined(separator: "+")
        self.preprocessor = preprocessor
        self.minimumLineConfidence = minimumLineConfidence
        self.retryBelowConfidence = retryBelowConfidence
        self.dataPath = dataPath
        threads = MediaThreadPool(threadCount: max(1, threadCount), name: "marquee.ocr")
    }

    /// A recogniser for background work (indexing for search): one engine on one thread at
    /// the lowest scheduling priority.
    public init(backgroundNamed name: String) {
        languages = "eng+jpn"
        preprocessor = FramePreprocessor()
        minimumLineConfidence = 0.45
        retryBelowConfidence = 0.7
        dataPath = nil
        threads = BackgroundThreads.pool(name: name)
    }

    /// How many engines have been loaded so far (they are reused, so this stays at most the
    /// thread count however many frames are read).
    public var enginesLoaded: Int { created.load(ordering: .relaxed) }

    /// How many Tesseract reads (passes over a frame or its regions) ran to the end, counted
    /// over the engines not in use now; a read stopped by a cancel is not one of them.
    public var readsCompleted: Int {
        idle.withLock { sets in
            sets.reduce(0) { total, set in
                total + set.all.reduce(0) { $0 + $1.readsCompleted.load(ordering: .relaxed) }
            }
        }
    }

    /// The text in `image`, with boxes in `image`'s pixels.
    ///
    /// With the default pre-processing the frame is read region by region, Japanese first
    /// (`RegionReading`); any other `preprocessor` reads the whole frame the earlier way
    /// (English first, unsure lines again), kept so `make bench` can compare the two.
    public func recognize(_ image: VideoImage) async throws -> RecognizedText {
        let preprocessor = self.preprocessor
        let minimum = minimumLineConfidence
        let retryBelow = retryBelowConfidence
        return try await threads.run { [self] flag in
            try flag.check()
            let engines = try checkOut()
            defer { checkIn(engines) }
            if preprocessor == FramePreprocessor() {
                let blocks = try RegionReading().read(
                    image, japanese: engines.japanese, latin: engines.latin, secondJapanese: { engines.secondJapanese }, flag: flag)
                return RecognizedText(frameSize: image.size, rotation: 0, blocks: blocks)
            }
            let prepared = preprocessor.prepare(image)
            var blocks = try engines.first.recognize(prepared, binarization: preprocessor.binarization, flag: flag)
            if let others = engines.others {
                blocks = try Self.rereadingUnsureLines(
                    of: blocks, in: prepared, with: others, below: retryBelow, binarization: preprocessor.binarization, flag: flag)
            }
            return RecognizedText(
                frameSize: image.size, rotation: 0,
                blocks: Self.filtered(blocks, scale: prepared.scale, minimumLineConfidence: minimum))
        }
    }

    /// The engines one thread reads a frame with: the first language alone and the other
    /// languages first (the whole-frame path), and the Japanese and Latin models alone (the
    /// region path). Each is loaded when first used.
    final class EngineSet: @unchecked Sendable {
        let first: TesseractEngine
        let others: TesseractEngine?
        private let names: [String]
        private let dataPath: String?
        private var loadedJapanese: TesseractEngine??
        private var loadedLatin: TesseractEngine??
        private var loadedSecondJapanese: TesseractEngine??

        init(first: TesseractEngine, others: TesseractEngine?, names: [String], dataPath: String?) {
            self.first = first
            self.others = others
            self.names = names
            self.dataPath = dataPath
        }

        /// The Japanese model alone, when the languages include "jpn": Tesseract's script model
        /// for Japanese (`Japanese`, Debian's tesseract-ocr-script-jpan) when it is installed,
        /// else `jpn` (the first engine when it is that). On the tuning half of the evaluation
        /// set the script model read Japanese at 7.3 % CER against 8.7 % (captions 100 -> 26 %:
        /// it is less sure of clutter read as kana, which is then dropped).
        var japanese: TesseractEngine? {
            if let loadedJapanese { return loadedJapanese }
            var engine: TesseractEngine?
            if names.contains("jpn") {
                engine =
                    (try? TesseractEngine(languages: Self.japaneseScriptModel, dataPath: dataPath))
                    ?? (first.languages == "jpn" ? first : try? TesseractEngine(languages: "jpn", dataPath: dataPath))
            }
            loadedJapanese = .some(engine)
            return engine
        }

        /// `jpn` beside the script model, which confirms the script model's unsure readings
        /// (nil when `japanese` is `jpn` itself).
        var secondJapanese: TesseractEngine? {
            if let loadedSecondJapanese { return loadedSecondJapanese }
            let engine: TesseractEngine? =
                japanese?.languages == Self.japaneseScriptModel
                ? (first.languages == "jpn" ? first : try? TesseractEngine(languages: "jpn", dataPath: dataPath)) : nil
            loadedSecondJapanese = .some(engine)
            return engine
        }

        /// The name Tesseract knows the Japanese script model by.
        static let japaneseScriptModel = "Japanese"

        /// The other languages (English), without Japanese.
        var latin: TesseractEngine? {
            if let loadedLatin { return loadedLatin }
            let rest = names.filter { $0 != "jpn" }.joined(separator: "+")
            let engine: TesseractEngine? = rest.isEmpty ? nil : (first.languages == rest ? first : try? TesseractEngine(languages: rest, dataPath: dataPath))
            loadedLatin = .some(engine)
            return engine
        }

        var all: [TesseractEngine] {
            var engines = [first]
            for engine in [others, loadedJapanese ?? nil, loadedLatin ?? nil, loadedSecondJapanese ?? nil] {
                if let engine, !engines.contains(where: { $0 === engine }) { engines.append(engine) }
            }
            return engines
        }
    }

    private func checkOut() throws -> EngineSet {
        if let engines = idle.withLock({ $0.popLast() }) { return engines }
        created.add(1, ordering: .relaxed)
        let names = languages.split(separator: "+").map(String.init)
        let first = try TesseractEngine(languages: names[0], dataPath: dataPath)
        guard names.count > 1 else { return EngineSet(first: first, others: nil, names: names, dataPath: dataPath) }
        let rest = (names.dropFirst() + [names[0]]).joined(separator: "+")
        return EngineSet(first: first, others: try TesseractEngine(languages: rest, dataPath: dataPath), names: names, dataPath: dataPath)
    }

    private func checkIn(_ engines: EngineSet) {
        idle.withLock { $0.append(engines) }
    }

    /// Reads again, with `engine`, each line of `blocks` whose confidence is under `threshold`
    /// or that holds a word under `wordThreshold` (a margin around the line included), and
    /// keeps whichever reading is surer. The word rule catches a stray mark English alone
    /// reads in code (`"“demo")` at 0.45 in a 0.84 line) that the Japanese model reads right.
    static func rereadingUnsureLines(
        of blocks: [TextBlock], in image: GrayImage, with engine: TesseractEngine, below threshold: Double,
        wordsBelow wordThreshold: Double = 0.6,
        binarization: FramePreprocessor.Binarization, flag: CancellationFlag
    ) throws -> [TextBlock] {
        var unsure: [(block: Int, line: Int)] = []
        var regions: [TextBox] = []
        for (b, block) in blocks.enumerated() {
            for (l, line) in block.lines.enumerated()
            where line.confidence < threshold || line.words.contains(where: { $0.confidence < wordThreshold }) {
                let margin = max(2, line.box.height / 4)
                let x = max(0, line.box.x - margin)
                let y = max(0, line.box.y - margin)
                let width = min(image.width, line.box.maxX + margin) - x
                let height = min(image.height, line.box.maxY + margin) - y
                guard width > 0, height > 0 else { continue }
                unsure.append((b, l))
                regions.append(TextBox(x: x, y: y, width: width, height: height))
            }
        }
        guard !regions.isEmpty else { return blocks }
        let rereadings = try engine.recognizeLines(in: regions, of: image, binarization: binarization, flag: flag)
        var result = blocks
        for (index, place) in unsure.enumerated() {
            guard let reread = rereadings[index], reread.confidence > blocks[place.block].lines[place.line].confidence else { continue }
            var lines = result[place.block].lines
            lines[place.line] = reread
            result[place.block] = TextBlock(box: lines.dropFirst().reduce(lines[0].box) { $0.union($1.box) }, lines: lines)
        }
        return result
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
