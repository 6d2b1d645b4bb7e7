import MediaCore

/// An 8-bit grayscale picture, the form Tesseract reads, with the scale it was resized by so
/// boxes found in it map back to the frame.
struct GrayImage: Sendable {
    let width: Int
    let height: Int
    /// Rows of `width` bytes, top to bottom.
    var pixels: [UInt8]
    /// How much larger than the source frame this picture is (2 after a 2× upscale).
    var scale: Double = 1

    init(width: Int, height: Int, pixels: [UInt8], scale: Double = 1) {
        precondition(pixels.count == width * height, "gray pixel count must match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.scale = scale
    }

    /// BT.601 luma of an RGB picture.
    init(_ image: VideoImage) {
        let count = image.width * image.height
        var gray = [UInt8](repeating: 0, count: count)
        image.pixels.withUnsafeBufferPointer { rgb in
            gray.withUnsafeMutableBufferPointer { out in
                for index in 0..<count {
                    let r = Int(rgb[index * 3])
                    let g = Int(rgb[index * 3 + 1])
                    let b = Int(rgb[index * 3 + 2])
                    out[index] = UInt8((r * 77 + g * 150 + b * 29) >> 8)
                }
            }
        }
        self.init(width: image.width, height: image.height, pixels: gray)
    }

    /// How many pixels have each gray level.
    var histogram: [Int] {
        var counts = [Int](repeating: 0, count: 256)
        pixels.withUnsafeBufferPointer { p in
            for value in p { counts[Int(value)] += 1 }
        }
        return counts
    }

    /// Otsu's threshold: the gray level that best splits the picture into two classes (127
    /// for a picture of one gray level, which has no split).
    var otsuThreshold: Int { otsuSplit.threshold }

    /// Otsu's split — the gray level that best splits the picture into two classes, dark at or
    /// below it — and how well it separates them (the between-class variance over the squared
    /// pixel count, 0 to about 16,000; 0 for a picture of one gray level, split at 127).
    /// The one implementation of Otsu's method in the module.
    var otsuSplit: (threshold: Int, separation: Double) {
        let counts = histogram
        let total = Double(pixels.count)
        var sum = 0.0
        for level in 0..<256 { sum += Double(level * counts[level]) }
        var backgroundSum = 0.0
        var backgroundWeight = 0.0
        var best = 0.0
        var threshold = 127
        for level in 0..<256 {
            backgroundWeight += Double(counts[level])
            if backgroundWeight == 0 { continue }
            let foregroundWeight = total - backgroundWeight
            if foregroundWeight == 0 { break }
            backgroundSum += Double(level * counts[level])
            let difference = backgroundSum / backgroundWeight - (sum - backgroundSum) / foregroundWeight
            let between = backgroundWeight * foregroundWeight * difference * difference
            if between > best {
                best = between
                threshold = level
            }
        }
        return (threshold, best / max(1, total * total))
    }

    /// The picture with dark and light swapped.
    func inverted() -> GrayImage {
        var copy = self
        copy.pixels.withUnsafeMutableBufferPointer { p in
            for index in p.indices { p[index] = 255 &- p[index] }
        }
        return copy
    }

    /// Pure black and white at `threshold`.
    func binarized(threshold: Int) -> GrayImage {
        var copy = self
        copy.pixels.withUnsafeMutableBufferPointer { p in
            for index in p.indices { p[index] = Int(p[index]) > threshold ? 255 : 0 }
        }
        return copy
    }

    /// The picture enlarged `factor` times with bilinear interpolation.
    func upscaled(by factor: Int) -> GrayImage {
        guard factor > 1 else { return self }
        let newWidth = width * factor
        let newHeight = height * factor
        var out = [UInt8](repeating: 0, count: newWidth * newHeight)
        let w = width
        let h = height
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<newHeight {
                    // Sample at pixel centres: (y + 0.5) / factor − 0.5 in source rows.
                    let sy = max(0, (Double(y) + 0.5) / Double(factor) - 0.5)
                    let y0 = min(h - 1, Int(sy))
                    let y1 = min(h - 1, y0 + 1)
                    let fy = Int((sy - Double(y0)) * 256)
                    for x in 0..<newWidth {
                        let sx = max(0, (Double(x) + 0.5) / Double(factor) - 0.5)
                        let x0 = min(w - 1, Int(sx))
                        let x1 = min(w - 1, x0 + 1)
                        let fx = Int((sx - Double(x0)) * 256)
                        let top = Int(source[y0 * w + x0]) * (256 - fx) + Int(source[y0 * w + x1]) * fx
                        let bottom = Int(source[y1 * w + x0]) * (256 - fx) + Int(source[y1 * w + x1]) * fx
                        target[y * newWidth + x] = UInt8((top * (256 - fy) + bottom * fy) >> 16)
                    }
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out, scale: scale * Double(factor))
    }
}
