import Foundation
import Logging
import MediaCore

/// How a frame is read: regions first, then each region prepared and read in the script it
/// is written in.
///
/// 1. Text regions are found from local contrast (`TextRegionFinder`), on a smoothed copy when
///    the picture is grainy; the frame is set upright when the edges inside them show a skew
///    of a degree or more, and the regions are found again; outlined captions over busy
///    pictures come from a mask of their own.
/// 2. Each region is prepared on its own (`RegionPreparation`: best colour plane, light text
///    inverted, contrast stretched, edge pieces taken out, enlarged; both polarities when in
///    doubt) and read by the Japanese model first. When that reading is mostly Latin or
///    unsure, the English model reads it too and the surer reading wins — so Japanese is never
///    lost to an English first pass, and code and English keep the English model's accuracy.
///    A large region read as nothing is read again made smaller.
/// 3. Readings that look like noise are dropped, and words two regions both read are kept once.
struct RegionReading: Sendable {
    var finder = TextRegionFinder()
    var preparation = RegionPreparation()
    /// Below this mean confidence a region's reading is dropped (clutter over busy pictures is
    /// read at 0.45–0.5)...
    var minimumConfidence = 0.5
    /// ...and below this one on a grainy picture, where grain lowers the confidence of text too.
    var minimumGrainyConfidence = 0.45
    /// A reading with fewer than three letters (Japanese ones count twice) needs this confidence.
    var shortReadingConfidence = 0.8
    /// A Japanese reading is kept outright when at least this share of its characters are Japanese.
    var japaneseShare = 0.3
    /// A Japanese reading less sure than this is checked against the English model's (a
    /// lone digit or a Latin word is read as a kanji with low confidence).
    var sureJapanese = 0.6
    /// A Japanese reading dropped as unsure is read by a second Japanese model when at least
    /// this sure, and kept when both read the same.
    var minimumConfirmedConfidence = 0.25

    func read(
        _ image: VideoImage, japanese: TesseractEngine?, latin: TesseractEngine?, secondJapanese: () -> TesseractEngine? = { nil },
        flag: CancellationFlag
    ) throws -> [TextBlock] {
        var picture = ColorPicture(image)
        // The picture sampled at its points turned by the skew is upright (`rotated(by:)`
        // samples the source at each output point turned by the angle given).
        let grainy = finder.noiseLevel(of: picture.luma) > 6
        var searched = grainy ? picture.luma.smoothed() : picture.luma
        var plain = finder.regions(in: searched)
        let skew = finder.skewAngle(of: picture.luma, within: plain)
        let turned = abs(skew) >= 1
        if Self.tracing { Self.traceLog.info("skew \(skew)") }
        if turned {
            picture = picture.rotated(by: skew)
            searched = grainy ? picture.luma.smoothed() : picture.luma
            plain = finder.regions(in: searched)
        }
        let luma = picture.luma
        var regions = plain.map { ($0, false) }
        let outlined = finder.regions(of: finder.outlinedMask(of: luma), width: luma.width, height: luma.height)
        // An outlined caption is read unless a region of about its height (the same line,
        // found from contrast) already covers it; one inside a large piece of clutter is read.
        for box in outlined where !plain.contains(where: { box.fractionCovered(by: $0) > 0.3 && $0.height <= box.height * 2 }) {
            regions.append((box, true))
        }
        var lines: [(line: TextLine, outlined: Bool)] = []
        for (region, isOutlined) in regions {
            try flag.check()
            var prepared = isOutlined ? preparation.prepareOutlined(region, of: picture) : preparation.prepare(region, of: picture, grainy: grainy)
            var reading = try readRegion(prepared.image, japanese: japanese, latin: latin, flag: flag)
            var source = prepared.image
            if let alternative = prepared.alternative,
                let other = try readRegion(alternative, japanese: japanese, latin: latin, flag: flag),
                Self.confidence(other) > Self.confidence(reading ?? [])
            {
                (reading, source) = (other, alternative)
            }
            if Self.tracing {
                Self.trace(region, outlined: isOutlined, prepared: prepared, reading: reading, kept: reading.map { accepts($0, grainy: grainy) } == true)
            }
            if !isOutlined, (reading ?? []).isEmpty,
                Double(region.height) * preparation.minimumScale >= preparation.targetHeight * 0.9
            {
                // Large text Tesseract read as nothing at all: once more, made smaller. (Also
                // re-reading large regions that were read but dropped added clutter.)
                let smaller = preparation.prepare(region, of: picture, grainy: grainy, shrinking: true)
                if let other = try readRegion(smaller.image, japanese: japanese, latin: latin, flag: flag),
                    Self.confidence(other) > Self.confidence(reading ?? [])
                {
                    (reading, prepared, source) = (other, smaller, smaller.image)
                }
            }
            guard let reading = reading.map(withoutClutter).map(Self.withYenSigns) else { continue }
            guard try accepts(reading, grainy: grainy) || confirmed(reading, in: source, by: secondJapanese, flag: flag) else { continue }
            for line in reading {
                let words = line.words.map { word in
                    var box = prepared.frameBox(word.box)
                    if turned { box = picture.unturned(box, by: skew) }
                    return RecognizedWord(text: word.text, box: box, confidence: word.confidence, spaceAfter: word.spaceAfter)
                }
                lines.append((Self.line(of: words), isOutlined))
            }
        }
        return Self.blocks(of: Self.deduplicated(lines))
    }

    /// The region read by the Japanese model, or by the English one when that is surer of a
    /// mostly Latin region.
    private func readRegion(_ image: GrayImage, japanese: TesseractEngine?, latin: TesseractEngine?, flag: CancellationFlag) throws -> [TextLine]? {
        var first: [TextLine] = []
        if let japanese {
            first = try japanese.recognizeBlock(image, flag: flag)
            let text = first.map(\.text).joined()
            let japaneseCount = text.unicodeScalars.filter(RecognizedText.isUnspacedScript).count
            let letters = text.unicodeScalars.filter { !CharacterSet.whitespaces.contains($0) }.count
            if !first.isEmpty, Double(japaneseCount) >= japaneseShare * Double(letters), japaneseCount > 0,
                Self.confidence(first) >= sureJapanese
            {
                return first
            }
            guard let latin else { return first }
            let second = try latin.recognizeBlock(image, flag: flag)
            let (firstConfidence, secondConfidence) = (Self.confidence(first), Self.confidence(second))
            let latinWins = japaneseCount == 0 ? secondConfidence >= firstConfidence : secondConfidence > firstConfidence + 0.1
            return latinWins ? second : first
        }
        return try latin?.recognizeBlock(image, flag: flag)
    }

    /// The reading without marks that are texture: words without a letter or digit on a line
    /// with no sure word (`{` and `//` in code stay: their lines have sure words). (Dropping
    /// unsure words as well cost more than it saved on the tuning half: code 2.1 -> 3.0 %,
    /// Japanese captions 105 -> 137 %.)
    private func withoutClutter(_ lines: [TextLine]) -> [TextLine] {
        lines.compactMap { line in
            let hasSureWord = line.words.contains { $0.confidence >= 0.7 && Self.hasLetter($0.text) }
            let words = line.words.filter { hasSureWord || Self.hasLetter($0.text) }
            return words.isEmpty ? nil : Self.line(of: words)
        }
    }

    /// Whether a Japanese reading too unsure to keep reads the same, character for character,
    /// with a second Japanese model (`jpn` beside the script model): two models rarely agree on
    /// texture, and the script model is unsure of some clean kanji ('新幹線' at 0.38).
    /// `engine` is asked for (and loaded) only when a reading needs it.
    private func confirmed(_ lines: [TextLine], in image: GrayImage, by engine: () -> TesseractEngine?, flag: CancellationFlag) throws -> Bool {
        guard Self.confidence(lines) >= minimumConfirmedConfidence else { return false }
        let text = Self.compact(lines)
        let japaneseCount = text.unicodeScalars.filter(RecognizedText.isUnspacedScript).count
        guard japaneseCount >= 2, japaneseCount * 2 >= text.unicodeScalars.count, let engine = engine() else { return false }
        return Self.compact(try engine.recognizeBlock(image, flag: flag)) == text
    }

    /// A reading's characters without whitespace.
    static func compact(_ lines: [TextLine]) -> String {
        String(String.UnicodeScalarView(lines.map(\.text).joined().unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }))
    }

    /// Lines with Japanese in them have '¥' where a backslash stands before a digit: the
    /// Japanese model reads the yen sign as the backslash (one code in Japanese encodings).
    static func withYenSigns(_ lines: [TextLine]) -> [TextLine] {
        lines.map { line in
            guard line.text.unicodeScalars.contains(where: RecognizedText.isUnspacedScript), line.text.contains("\\") else { return line }
            let words = line.words.map { word in
                var scalars = Array(word.text.unicodeScalars)
                for index in scalars.indices.dropLast() where scalars[index] == "\\" && CharacterSet.decimalDigits.contains(scalars[index + 1]) {
                    scalars[index] = "¥"
                }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars)
                return RecognizedWord(text: text, box: word.box, confidence: word.confidence, spaceAfter: word.spaceAfter)
            }
            return Self.line(of: words)
        }
    }

    /// Whether `text` has a letter or digit; a run of long-vowel marks ('ーー', texture's
    /// stripes as the Japanese model reads them) has none.
    private static func hasLetter(_ text: String) -> Bool {
        text.unicodeScalars.contains { CharacterSet.alphanumerics.contains($0) && $0 != "ー" }
    }

    /// Whether a region's reading is text rather than texture read as letters.
    private func accepts(_ lines: [TextLine], grainy: Bool) -> Bool {
        let text = lines.map(\.text).joined().unicodeScalars.filter { !CharacterSet.whitespaces.contains($0) }
        guard !text.isEmpty else { return false }
        let confidence = Self.confidence(lines)
        let letters = text.filter { CharacterSet.alphanumerics.contains($0) }
        let weight = letters.reduce(0) { $0 + (RecognizedText.isUnspacedScript($1) ? 2 : 1) }
        return confidence >= (grainy ? minimumGrainyConfidence : minimumConfidence) && weight >= 1 && (weight >= 3 || confidence >= shortReadingConfidence)
            && letters.count * 2 >= text.count
    }

    /// `MARQUEE_LIVETEXT_TRACE=1` writes each region, its reading and whether it was kept to
    /// standard error (for tuning on the evaluation set).
    static let tracing = ProcessInfo.processInfo.environment["MARQUEE_LIVETEXT_TRACE"] != nil
    /// Where `MARQUEE_LIVETEXT_TRACE` lines go (swift-log, like every other line the server writes).
    /// Written at info whatever level the command logs at (`marquee text` logs warnings only).
    static let traceLog: Logger = {
        var logger = Logger(label: "marquee.live-text.trace")
        logger.logLevel = .info
        return logger
    }()

    /// Writes a region, its reading and whether it was kept to standard error, and the
    /// prepared picture to `MARQUEE_LIVETEXT_DUMP` (a folder) when that is set.
    private static func trace(_ region: TextBox, outlined: Bool, prepared: RegionPreparation.Prepared, reading: [TextLine]?, kept: Bool) {
        if let folder = ProcessInfo.processInfo.environment["MARQUEE_LIVETEXT_DUMP"] {
            let header = Data("P5 \(prepared.image.width) \(prepared.image.height) 255\n".utf8)
            try? (header + Data(prepared.image.pixels)).write(to: URL(fileURLWithPath: "\(folder)/\(region.x)-\(region.y).pgm"))
        }
        let text = reading?.map(\.text).joined(separator: " / ") ?? "-"
        let confidence = String(format: "%.2f", confidence(reading ?? []))
        let place = "\(region.x),\(region.y) \(region.width)x\(region.height)\(outlined ? " outlined" : "")"
        traceLog.info("region \(place) conf \(confidence) \(kept ? "kept" : "dropped"): \(text)")
    }

    static func confidence(_ lines: [TextLine]) -> Double {
        let words = lines.flatMap(\.words)
        return words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }

    static func line(of words: [RecognizedWord]) -> TextLine {
        TextLine(
            box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) },
            confidence: words.map(\.confidence).reduce(0, +) / Double(words.count), words: words)
    }

    /// Keeps each word once where regions overlap: plain regions before outlined ones, the
    /// surer word first; a word more than half covered by a kept one is dropped.
    static func deduplicated(_ lines: [(line: TextLine, outlined: Bool)]) -> [TextLine] {
        var order: [(line: Int, word: Int, outlined: Bool, confidence: Double)] = []
        for (l, entry) in lines.enumerated() {
            for (w, word) in entry.line.words.enumerated() { order.append((l, w, entry.outlined, word.confidence)) }
        }
        order.sort { ($0.outlined ? 1 : 0, -$0.confidence) < ($1.outlined ? 1 : 0, -$1.confidence) }
        var kept: [TextBox] = []
        var keep = Set<[Int]>()
        for item in order {
            let box = lines[item.line].line.words[item.word].box
            if kept.contains(where: { box.fractionCovered(by: $0) > 0.5 }) { continue }
            kept.append(box)
            keep.insert([item.line, item.word])
        }
        return lines.enumerated().compactMap { l, entry in
            let words = entry.line.words.enumerated().filter { keep.contains([l, $0.offset]) }.map(\.element)
            guard !words.isEmpty else { return nil }
            let merged = withPunctuationAttached(words)
            let fixed = merged.enumerated().map { index, word in
                RecognizedWord(
                    text: word.text, box: word.box, confidence: word.confidence,
                    spaceAfter: index + 1 < merged.count ? RecognizedText.spaced(word.text, merged[index + 1].text) : false)
            }
            return line(of: fixed)
        }
    }

    /// `words` with each word of closing punctuation alone (`:` after `灯台`, which the Japanese
    /// model reads as a word of its own) joined to the word before it when nothing is written
    /// between them: `灯台:` is one word, as `edition:` is.
    static func withPunctuationAttached(_ words: [RecognizedWord]) -> [RecognizedWord] {
        var result: [RecognizedWord] = []
        for word in words {
            if let last = result.last, !RecognizedText.spaced(last.text, word.text),
                !word.text.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) }),
                word.text.unicodeScalars.allSatisfy({ CharacterSet.punctuationCharacters.contains($0) && !"([{「『（【〈《“‘".unicodeScalars.contains($0) }),
                word.box.x >= last.box.x
            {
                result[result.count - 1] = RecognizedWord(
                    text: last.text + word.text, box: last.box.union(word.box), confidence: min(last.confidence, word.confidence),
                    spaceAfter: word.spaceAfter)
                continue
            }
            result.append(word)
        }
        return result
    }

    /// One block per line, in reading order (top to bottom, then left to right).
    static func blocks(of lines: [TextLine]) -> [TextBlock] {
        lines.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }.map { TextBlock(box: $0.box, lines: [$0]) }
    }
}
