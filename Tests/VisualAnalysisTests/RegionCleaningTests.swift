import Testing

@testable import VisualAnalysis

/// How a cut-out region is made to look like a page before Tesseract reads it.
@Suite("Region cleaning: Otsu's split, contrast, edge pieces, an uneven ground, yen signs, punctuation")
struct RegionCleaningTests {
    /// A `width` × `height` picture of `ground` with a `ink` block inside it.
    func picture(width: Int = 40, height: Int = 20, ground: UInt8, ink: UInt8, block: (x: Range<Int>, y: Range<Int>)) -> GrayImage {
        var pixels = [UInt8](repeating: ground, count: width * height)
        for y in block.y {
            for x in block.x { pixels[y * width + x] = ink }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    @Test("One Otsu implementation: the split lies between the two levels; a flat picture splits at 127")
    func otsu() {
        let image = picture(ground: 180, ink: 60, block: (10..<20, 5..<15))
        let (threshold, separation) = image.otsuSplit
        #expect(threshold >= 60 && threshold < 180)
        #expect(image.otsuThreshold == threshold)
        #expect(separation > 0)
        let flat = GrayImage(width: 4, height: 4, pixels: [UInt8](repeating: 90, count: 16))
        #expect(flat.otsuSplit.threshold == 127)
        #expect(flat.otsuSplit.separation == 0)
        #expect(flat.otsuThreshold == 127)
    }

    @Test("A dim region is stretched: its ink goes black and its grey ground white")
    func stretched() {
        let image = picture(ground: 190, ink: 120, block: (10..<20, 5..<15))
        let threshold = image.otsuSplit.threshold
        let stretched = image.stretched(ground: image.medianAbove(threshold))
        #expect(stretched.pixels[0] == 255)
        #expect(stretched.pixels[10 * 40 + 15] == 0)
    }

    @Test("Light text covers less of its region than its ground: the dark class is the larger one")
    func darkShare() {
        let lightText = picture(ground: 20, ink: 230, block: (10..<20, 5..<15))
        #expect(lightText.darkShare(threshold: lightText.otsuSplit.threshold) > 0.5)
        let darkText = lightText.inverted()
        #expect(darkText.darkShare(threshold: darkText.otsuSplit.threshold) < 0.5)
    }

    @Test("Dark pieces that touch the region's edge are taken out; the text inside stays")
    func borderInk() {
        var image = picture(ground: 255, ink: 0, block: (15..<25, 6..<14))
        for x in 0..<40 { image.pixels[19 * 40 + x] = 0 }  // a strip's edge along the bottom
        let cleaned = image.withoutBorderInk()
        #expect(cleaned.pixels[19 * 40 + 5] == 255)
        #expect(cleaned.pixels[10 * 40 + 20] == 0)
    }

    @Test("In a line with Japanese, a backslash before a digit is a yen sign; elsewhere it stays")
    func yenSigns() {
        func line(_ texts: [String]) -> TextLine {
            RegionReading.line(
                of: texts.enumerated().map { index, text in
                    RecognizedWord(text: text, box: TextBox(x: index * 50, y: 0, width: 40, height: 20), confidence: 0.9, spaceAfter: true)
                })
        }
        let japanese = RegionReading.withYenSigns([line(["ラーメン", "\\850"])])
        #expect(japanese[0].words.map(\.text) == ["ラーメン", "¥850"])
        let code = RegionReading.withYenSigns([line(["match", "\\1"])])
        #expect(code[0].words.map(\.text) == ["match", "\\1"])
    }

    @Test("A ground light on the left and grey on the right is evened out; the ink on both sides stays dark")
    func flattened() {
        var image = picture(width: 60, height: 20, ground: 240, ink: 0, block: (5..<10, 6..<14))
        for y in 0..<20 {
            for x in 30..<60 { image.pixels[y * 60 + x] = 120 }
        }
        for y in 6..<14 {
            for x in 45..<50 { image.pixels[y * 60 + x] = 10 }
        }
        let flat = image.flattened(radius: 4)
        #expect(flat.pixels[2 * 60 + 50] > 200)  // the grey ground
        #expect(flat.pixels[2 * 60 + 15] > 200)  // the light ground
        #expect(flat.pixels[10 * 60 + 47] < 60)
        #expect(flat.pixels[10 * 60 + 7] < 60)
    }

    @Test("Closing punctuation read as a word of its own joins the Japanese word before it; an opening bracket does not")
    func punctuationAttached() {
        func word(_ text: String, at x: Int) -> RecognizedWord {
            RecognizedWord(text: text, box: TextBox(x: x, y: 0, width: 20, height: 20), confidence: 0.9, spaceAfter: false)
        }
        let joined = RegionReading.withPunctuationAttached([word("灯台", at: 0), word(":", at: 40), word("Rust", at: 70)])
        #expect(joined.map(\.text) == ["灯台:", "Rust"])
        #expect(joined[0].box == TextBox(x: 0, y: 0, width: 60, height: 20))
        let opening = RegionReading.withPunctuationAttached([word("言った", at: 0), word("「", at: 60), word("はい", at: 80)])
        #expect(opening.map(\.text) == ["言った", "「", "はい"])
        let english = RegionReading.withPunctuationAttached([word("edition", at: 0), word(":", at: 80)])
        #expect(english.map(\.text) == ["edition", ":"])
    }
}
