import CTesseract
import Foundation
import MediaCore
import Synchronization

/// One initialised Tesseract engine (`TessBaseAPI`) with its language models loaded.
///
/// Loading the English and Japanese models takes a noticeable fraction of a second, so
/// engines are made once and reused (`EnginePool`). An engine is used by one thread at a
/// time: the pool hands it out exclusively, which is what makes it `Sendable`.
final class TesseractEngine: @unchecked Sendable {
    private let handle: OpaquePointer
    let languages: String
    /// Reads Tesseract ran to the end (its monitor's progress at 100 when it returned; a
    /// cancelled read stops short of it): how a test tells a prompt stop from a read that ran on.
    let readsCompleted = Atomic<Int>(0)

    /// Loads `languages` ("jpn+eng") from `dataPath` (nil: Tesseract's installed tessdata).
    init(languages: String, dataPath: String?) throws(TextRecognitionError) {
        TesseractEngine.runSerially()
        guard let handle = TessBaseAPICreate() else { throw .engine("cannot create a Tesseract engine") }
        // Tesseract's diagnostics ("Estimating resolution as …") would go to standard error.
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        guard TessBaseAPIInit3(handle, dataPath, languages) == 0 else {
            TessBaseAPIDelete(handle)
            throw .engine(
                "cannot load the Tesseract models \"\(languages)\" from \(dataPath ?? "the installed tessdata"); install tesseract-ocr-eng and tesseract-ocr-jpn"
            )
        }
        self.handle = handle
        self.languages = languages
        // Pre-processing has already turned light text dark; Tesseract's own second pass on
        // an inverted copy would double the work for nothing.
        _ = TessBaseAPISetVariable(handle, "tessedit_do_invert", "0")
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Tesseract parallelises its LSTM with OpenMP, whose worker threads spin on a busy
    /// machine and multiply the time a frame takes; Marquee runs several engines on its own
    /// threads instead, so OpenMP regions are made single-threaded. libgomp keeps these
    /// settings per thread (OpenMP's ICVs belong to the calling thread's data environment),
    /// so every thread that recognises sets them before it does: set once for the process,
    /// the OCR pool's second thread still spawned spinning teams, and a frame cost 1.5 s of
    /// CPU instead of 0.3 s in the server.
    private static let serialOpenMP: (@convention(c) (Int32) -> Void, @convention(c) (Int32) -> Void)? = {
        typealias SetInt = @convention(c) (Int32) -> Void
        #if os(Linux)
        let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #else
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #endif
        guard let levels = dlsym(everywhere, "omp_set_max_active_levels"), let threads = dlsym(everywhere, "omp_set_num_threads") else {
            return nil
        }
        return (unsafeBitCast(levels, to: SetInt.self), unsafeBitCast(threads, to: SetInt.self))
    }()

    /// Makes OpenMP regions started from the calling thread single-threaded.
    static func runSerially() {
        guard let (setMaxActiveLevels, setNumThreads) = serialOpenMP else { return }
        setMaxActiveLevels(0)
        setNumThreads(1)
    }

    /// Recognises the text in `image`; boxes are in `image`'s pixels. Polls `flag` while it works.
    func recognize(_ image: GrayImage, binarization: FramePreprocessor.Binarization, flag: CancellationFlag) throws -> [TextBlock] {
        try reading(image, binarization: binarization, flag: flag) { monitor in
            TessBaseAPISetPageSegMode(handle, PSM_AUTO)
            return try recognizeSet(monitor, flag: flag)
        }
    }

    /// Reads each of `regions` of `image` on its own, as one block of text, and gives its words
    /// as one line (nil where nothing was read); boxes are in `image`'s pixels.
    func recognizeLines(
        in regions: [TextBox], of image: GrayImage, binarization: FramePreprocessor.Binarization, flag: CancellationFlag
    ) throws -> [TextLine?] {
        try reading(image, binarization: binarization, flag: flag) { monitor in
            TessBaseAPISetPageSegMode(handle, PSM_SINGLE_BLOCK)
            return try regions.map { region -> TextLine? in
                // Tesseract reports boxes in the whole picture's coordinates after SetRectangle.
                TessBaseAPISetRectangle(handle, Int32(region.x), Int32(region.y), Int32(region.width), Int32(region.height))
                let words = try recognizeSet(monitor, flag: flag).flatMap(\.lines).flatMap(\.words)
                guard let first = words.first else { return nil }
                let box = words.dropFirst().reduce(first.box) { $0.union($1.box) }
                let confidence = words.map(\.confidence).reduce(0, +) / Double(words.count)
                return TextLine(box: box, confidence: confidence, words: words)
            }
        }
    }

    /// Reads `image` as one block of text (a region the region finder cut out) and gives its
    /// lines; boxes are in `image`'s pixels. Each word's box is the union of its characters'
    /// boxes (Tesseract's symbol level), cut back where it runs over the next word of its line:
    /// the LSTM engine reports the first word of a Japanese line as wide as the whole line.
    func recognizeBlock(_ image: GrayImage, flag: CancellationFlag) throws -> [TextLine] {
        try reading(image, binarization: .tesseract, flag: flag) { monitor in
            TessBaseAPISetPageSegMode(handle, PSM_SINGLE_BLOCK)
            let status = TessBaseAPIRecognize(handle, monitor)
            if TessMonitorGetProgress(monitor) >= 100 { readsCompleted.add(1, ordering: .relaxed) }
            try flag.check()
            guard status == 0 else { throw TextRecognitionError.engine("Tesseract could not recognise the frame (status \(status))") }
            guard let iterator = TessBaseAPIGetIterator(handle) else { return [] }
            defer { TessResultIteratorDelete(iterator) }
            return Self.lines(from: iterator)
        }
    }

    private static func lines(from iterator: OpaquePointer) -> [TextLine] {
        let page = TessResultIteratorGetPageIterator(iterator)
        var lines: [[(text: String, box: TextBox?, confidence: Double)]] = []
        repeat {
            if lines.isEmpty || TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 { lines.append([]) }
            if lines[lines.count - 1].isEmpty || TessPageIteratorIsAtBeginningOf(page, RIL_WORD) != 0 {
                let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD)) / 100
                lines[lines.count - 1].append(("", nil, max(0, min(1, confidence))))
            }
            guard let raw = TessResultIteratorGetUTF8Text(iterator, RIL_SYMBOL) else { continue }
            let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
            TessDeleteText(raw)
            var left: Int32 = 0
            var top: Int32 = 0
            var right: Int32 = 0
            var bottom: Int32 = 0
            guard !text.isEmpty, TessPageIteratorBoundingBox(page, RIL_SYMBOL, &left, &top, &right, &bottom) != 0 else { continue }
            let box = TextBox(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
            let last = lines.count - 1
            let word = lines[last].count - 1
            lines[last][word].text += text
            lines[last][word].box = lines[last][word].box?.union(box) ?? box
        } while TessResultIteratorNext(iterator, RIL_SYMBOL) != 0

        return lines.compactMap { raw -> TextLine? in
            var words = raw.compactMap { word in word.box.map { (word.text, $0, word.confidence) } }.filter { !$0.0.isEmpty }
            guard !words.isEmpty else { return nil }
            for index in words.indices.dropLast() {
                let (box, next) = (words[index].1, words[index + 1].1)
                let sameRow = abs((box.y + box.maxY) - (next.y + next.maxY)) < box.height
                if box.x < next.x, next.x < box.maxX, sameRow {
                    words[index].1 = TextBox(x: box.x, y: box.y, width: next.x - box.x, height: box.height)
                }
            }
            let built = words.enumerated().map { index, word in
                RecognizedWord(
                    text: word.0, box: word.1, confidence: word.2,
                    spaceAfter: index + 1 < words.count ? RecognizedText.spaced(word.0, words[index + 1].0) : false)
            }
            let box = built.dropFirst().reduce(built[0].box) { $0.union($1.box) }
            return TextLine(box: box, confidence: built.map(\.confidence).reduce(0, +) / Double(built.count), words: built)
        }
    }

    /// Gives Tesseract `image` for the length of `body`, with a monitor that polls `flag`.
    private func reading<Result>(
        _ image: GrayImage, binarization: FramePreprocessor.Binarization, flag: CancellationFlag,
        _ body: (OpaquePointer?) throws -> Result
    ) throws -> Result {
        _ = TessBaseAPISetVariable(handle, "thresholding_method", binarization == .sauvola ? "2" : "0")
        image.pixels.withUnsafeBufferPointer { pixels in
            TessBaseAPISetImage(handle, pixels.baseAddress, Int32(image.width), Int32(image.height), 1, Int32(image.width))
        }
        // Tesseract copies the picture in SetImage; the buffer may go after this point.
        // No source resolution is set: Tesseract estimates it from the text's x-height, which
        // its layout analysis needs (a fixed 96 dpi split Japanese lines into fragments).
        defer { TessBaseAPIClear(handle) }

        let monitor = TessMonitorCreate()
        defer { TessMonitorDelete(monitor) }
        TessMonitorSetCancelFunc(monitor) { context, _ in
            guard let context else { return false }
            return Unmanaged<CancellationFlag>.fromOpaque(context).takeUnretainedValue().isCancelled
        }
        Self.runSerially()  // on this thread, which may not be the one that made the engine
        return try withExtendedLifetime(flag) {
            TessMonitorSetCancelThis(monitor, Unmanaged.passUnretained(flag).toOpaque())
            return try body(monitor)
        }
    }

    /// Recognises the picture (or rectangle) set and reads the result.
    private func recognizeSet(_ monitor: OpaquePointer?, flag: CancellationFlag) throws -> [TextBlock] {
        let status = TessBaseAPIRecognize(handle, monitor)
        if TessMonitorGetProgress(monitor) >= 100 { readsCompleted.add(1, ordering: .relaxed) }
        try flag.check()
        guard status == 0 else { throw TextRecognitionError.engine("Tesseract could not recognise the frame (status \(status))") }
        guard let iterator = TessBaseAPIGetIterator(handle) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        return readBlocks(iterator)
    }

    private func readBlocks(_ iterator: OpaquePointer) -> [TextBlock] {
        let page = TessResultIteratorGetPageIterator(iterator)
        var blocks: [[(box: TextBox, words: [(String, TextBox, Double)])]] = []
        repeat {
            guard let raw = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
            TessDeleteText(raw)
            if blocks.isEmpty || TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 { blocks.append([]) }
            if blocks[blocks.count - 1].isEmpty || TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 {
                blocks[blocks.count - 1].append((TextBox(x: 0, y: 0, width: 0, height: 0), []))
            }
            guard !text.isEmpty else { continue }
            var left: Int32 = 0
            var top: Int32 = 0
            var right: Int32 = 0
            var bottom: Int32 = 0
            guard TessPageIteratorBoundingBox(page, RIL_WORD, &left, &top, &right, &bottom) != 0 else { continue }
            let box = TextBox(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
            let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD)) / 100
            let lineIndex = blocks[blocks.count - 1].count - 1
            blocks[blocks.count - 1][lineIndex].words.append((text, box, confidence))
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0

        return blocks.compactMap { lines -> TextBlock? in
            let built = lines.compactMap { line -> TextLine? in
                guard !line.words.isEmpty else { return nil }
                let words = line.words.enumerated().map { index, word in
                    let next = index + 1 < line.words.count ? line.words[index + 1].0 : nil
                    return RecognizedWord(
                        text: word.0, box: word.1, confidence: max(0, min(1, word.2)),
                        spaceAfter: next.map { RecognizedText.spaced(word.0, $0) } ?? false)
                }
                let box = words.dropFirst().reduce(words[0].box) { $0.union($1.box) }
                let confidence = words.map(\.confidence).reduce(0, +) / Double(words.count)
                return TextLine(box: box, confidence: confidence, words: words)
            }
            guard let first = built.first else { return nil }
            return TextBlock(box: built.dropFirst().reduce(first.box) { $0.union($1.box) }, lines: built)
        }
    }
}

/// Why text recognition failed.
public enum TextRecognitionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Tesseract could not be set up or failed on a frame.
    case engine(String)
    /// Frame analysis is not allowed for this asset (it is protected) or this player.
    case notAllowed(String)

    public var description: String {
        switch self {
        case .engine(let message), .notAllowed(let message): message
        }
    }
}
