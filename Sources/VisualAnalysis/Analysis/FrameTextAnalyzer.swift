public import MediaCore

/// The text in the frame of an asset that is on screen at a time.
public struct FrameText: Codable, Sendable, Hashable {
    /// Presentation time, in seconds, of the frame that was read.
    public var frameTime: Double
    /// How long that frame stays on screen, in seconds (one frame at the track's rate).
    public var frameDuration: Double
    public var text: RecognizedText

    public init(frameTime: Double, frameDuration: Double, text: RecognizedText) {
        self.frameTime = frameTime
        self.frameDuration = frameDuration
        self.text = text
    }
}

/// Reads the text in the exact frame of an asset shown at a time — decoded at full size with
/// zero tolerance by MediaCore's `ImageGenerator`, never the nearest keyframe — and reports
/// boxes in the decoded frame's coordinates before display rotation, with the rotation.
public struct FrameTextAnalyzer: Sendable {
    public let recognizer: TextRecognizer

    public init(recognizer: TextRecognizer = .shared) {
        self.recognizer = recognizer
    }

    public func analyze(_ asset: MediaAsset, at seconds: Double) async throws -> FrameText {
        let (tracks, duration) = try await asset.load(.tracks, .duration)
        guard let video = tracks.first(where: { $0.mediaType == .video && !$0.isAttachedPicture }) else {
            throw TextRecognitionError.engine("\(asset.source.displayName) has no video track to read text from")
        }
        let rotation = ((video.displayRotation % 360) + 360) % 360
        var generator = ImageGenerator(asset: asset)
        generator.setTolerance(.zero)
        generator.maximumSize = nil
        // Upright, as a viewer sees it, so Tesseract reads lines the right way up.
        generator.appliesPreferredTrackTransform = true
        // A player paused at the very end shows the last frame: read that one.
        var time = max(0, seconds)
        if duration.isNumeric, duration.seconds > 0, time >= duration.seconds { time = max(0, duration.seconds - 0.001) }
        let (image, actual) = try await generator.image(at: MediaTime(seconds: time, preferredTimescale: 90_000))
        try Task.checkCancellation()
        let upright = try await recognizer.recognize(image)
        let frameRate = video.nominalFrameRate ?? 0
        return FrameText(
            frameTime: actual.seconds, frameDuration: frameRate > 0 ? 1 / frameRate : 0,
            text: Self.unrotated(upright, rotation: rotation))
    }

    /// Moves boxes found in the upright picture back to the decoded frame's coordinates
    /// (the picture before a clockwise `rotation` was applied).
    static func unrotated(_ text: RecognizedText, rotation: Int) -> RecognizedText {
        guard rotation != 0 else { return text }
        let shown = text.frameSize  // upright size
        let frame = rotation % 180 == 0 ? shown : PixelSize(width: shown.height, height: shown.width)
        func map(_ box: TextBox) -> TextBox {
            switch rotation {
            case 90:
                // Upright (ux, uy) came from frame (uy, frame.height − 1 − ux).
                return TextBox(x: box.y, y: frame.height - box.maxX, width: box.height, height: box.width)
            case 270:
                return TextBox(x: frame.width - box.maxY, y: box.x, width: box.height, height: box.width)
            case 180:
                return TextBox(x: frame.width - box.maxX, y: frame.height - box.maxY, width: box.width, height: box.height)
            default:
                return box
            }
        }
        let blocks = text.blocks.map { block in
            TextBlock(
                box: map(block.box),
                lines: block.lines.map { line in
                    TextLine(
                        box: map(line.box), confidence: line.confidence,
                        words: line.words.map {
                            RecognizedWord(text: $0.text, box: map($0.box), confidence: $0.confidence, spaceAfter: $0.spaceAfter)
                        })
                })
        }
        return RecognizedText(frameSize: frame, rotation: rotation, blocks: blocks)
    }
}
