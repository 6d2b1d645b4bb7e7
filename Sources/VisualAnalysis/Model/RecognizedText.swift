public import MediaCore

/// The text found in one video frame, as Live Text shows it: blocks of lines of words in
/// reading order, each with where it lies in the frame and how sure the recogniser was.
///
/// Boxes are in the decoded frame's pixel coordinates *before* the track's display rotation
/// is applied (`frameSize` is that frame's size); `rotation` says how far a viewer sees the
/// picture turned clockwise, so a client maps boxes onto what it displays.
public struct RecognizedText: Codable, Sendable, Hashable {
    /// Width and height of the decoded frame the boxes refer to (before rotation).
    public var frameSize: PixelSize
    /// Clockwise display rotation of the frame: 0, 90, 180 or 270.
    public var rotation: Int
    public var blocks: [TextBlock]

    public init(frameSize: PixelSize, rotation: Int, blocks: [TextBlock]) {
        self.frameSize = frameSize
        self.rotation = rotation
        self.blocks = blocks
    }

    /// Every line in reading order.
    public var lines: [TextLine] { blocks.flatMap(\.lines) }

    /// Every word in reading order.
    public var words: [RecognizedWord] { lines.flatMap(\.words) }

    /// All the text: lines separated by newlines, blocks by a blank line.
    public var text: String {
        blocks.map { $0.lines.map(\.text).joined(separator: "\n") }.joined(separator: "\n\n")
    }

    /// Whether anything was found.
    public var isEmpty: Bool { blocks.allSatisfy { $0.lines.isEmpty } }
}

/// A run of lines Tesseract found together (a paragraph, a caption, a code listing).
public struct TextBlock: Codable, Sendable, Hashable {
    public var box: TextBox
    public var lines: [TextLine]

    public init(box: TextBox, lines: [TextLine]) {
        self.box = box
        self.lines = lines
    }
}

/// One line of text; `text` joins its words as written (no spaces between Japanese words).
public struct TextLine: Codable, Sendable, Hashable {
    public var text: String
    public var box: TextBox
    /// From 0 to 1.
    public var confidence: Double
    public var words: [RecognizedWord]

    public init(box: TextBox, confidence: Double, words: [RecognizedWord]) {
        self.box = box
        self.confidence = confidence
        self.words = words
        self.text = words.map { $0.text + ($0.spaceAfter ? " " : "") }.joined()
    }
}

/// One recognised word.
public struct RecognizedWord: Codable, Sendable, Hashable {
    public var text: String
    public var box: TextBox
    /// From 0 to 1.
    public var confidence: Double
    /// Whether a space follows it in the line as written: false at the end of a line and
    /// between words of scripts written without spaces (Japanese, Chinese).
    public var spaceAfter: Bool

    public init(text: String, box: TextBox, confidence: Double, spaceAfter: Bool) {
        self.text = text
        self.box = box
        self.confidence = confidence
        self.spaceAfter = spaceAfter
    }
}

/// An axis-aligned rectangle in frame pixels; `x`, `y` is its top-left corner.
public struct TextBox: Codable, Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var description: String { "(\(x), \(y), \(width)×\(height))" }

    /// The smallest box holding both.
    public func union(_ other: TextBox) -> TextBox {
        let minX = min(x, other.x)
        let minY = min(y, other.y)
        return TextBox(x: minX, y: minY, width: max(maxX, other.maxX) - minX, height: max(maxY, other.maxY) - minY)
    }

    /// The share of this box's area that `other` covers, 0 to 1.
    public func fractionCovered(by other: TextBox) -> Double {
        let w = max(0, min(maxX, other.maxX) - max(x, other.x))
        let h = max(0, min(maxY, other.maxY) - max(y, other.y))
        return width * height == 0 ? 0 : Double(w * h) / Double(width * height)
    }
}

extension RecognizedText {
    /// Whether a character is from a script written without spaces between words.
    static func isUnspacedScript(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3000...0x303F,  // CJK punctuation
            0x3040...0x30FF,  // Hiragana, Katakana
            0x31F0...0x31FF,  // Katakana extensions
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,  // Han
            0xFF00...0xFFEF,  // full-width forms
            0x20000...0x2FFFF:
            return true
        default:
            return false
        }
    }

    /// Whether two neighbouring words are written with a space between them.
    static func spaced(_ left: String, _ right: String) -> Bool {
        guard let last = left.unicodeScalars.last, let first = right.unicodeScalars.first else { return true }
        return !(isUnspacedScript(last) || isUnspacedScript(first))
    }
}
