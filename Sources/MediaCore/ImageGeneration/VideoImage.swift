/// A decoded picture as packed 8-bit RGB, ready to show or encode.
///
/// Rotation and pixel aspect have already been applied when it comes from `ImageGenerator`,
/// so `width` and `height` are what a viewer sees.
public struct VideoImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Rows of `width * 3` bytes (R, G, B), top to bottom.
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGB pixel count must match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The colour at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }

    /// The mean colour of a rectangle, for tests and quick checks.
    public func averageColor(x: Int, y: Int, width w: Int, height h: Int) -> (red: Double, green: Double, blue: Double) {
        var sums = (0, 0, 0)
        for row in y..<min(height, y + h) {
            for column in x..<min(width, x + w) {
                let p = pixel(x: column, y: row)
                sums.0 += Int(p.red)
                sums.1 += Int(p.green)
                sums.2 += Int(p.blue)
            }
        }
        let count = Double(max(1, (min(height, y + h) - y) * (min(width, x + w) - x)))
        return (Double(sums.0) / count, Double(sums.1) / count, Double(sums.2) / count)
    }

    /// The picture turned clockwise by 90, 180 or 270 degrees.
    func rotated(clockwise degrees: Int) -> VideoImage {
        switch ((degrees % 360) + 360) % 360 {
        case 90, 270:
            var out = [UInt8](repeating: 0, count: pixels.count)
            let newWidth = height
            let newHeight = width
            let clockwise90 = ((degrees % 360) + 360) % 360 == 90
            pixels.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBufferPointer { target in
                    for y in 0..<height {
                        for x in 0..<width {
                            let (nx, ny) = clockwise90 ? (height - 1 - y, x) : (y, width - 1 - x)
                            let s = (y * width + x) * 3
                            let t = (ny * newWidth + nx) * 3
                            target[t] = source[s]
                            target[t + 1] = source[s + 1]
                            target[t + 2] = source[s + 2]
                        }
                    }
                }
            }
            return VideoImage(width: newWidth, height: newHeight, pixels: out)
        case 180:
            var out = [UInt8](repeating: 0, count: pixels.count)
            let count = width * height
            pixels.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBufferPointer { target in
                    for index in 0..<count {
                        let s = index * 3
                        let t = (count - 1 - index) * 3
                        target[t] = source[s]
                        target[t + 1] = source[s + 1]
                        target[t + 2] = source[s + 2]
                    }
                }
            }
            return VideoImage(width: width, height: height, pixels: out)
        default:
            return self
        }
    }
}
