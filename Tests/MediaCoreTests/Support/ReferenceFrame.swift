import Foundation

@testable import MediaCore

/// Pictures as the ffmpeg CLI decodes them, to compare MediaCore's images against.
enum ReferenceFrame {
    /// The frame ffmpeg shows at `seconds` (accurate seek, autorotation on), as RGB at `size`.
    static func rgb(_ path: String, at seconds: Double, size: PixelSize) throws -> VideoImage {
        let out = MediaFixtures.shared.scratch("reference.rgb")
        try FFmpegTool.ffmpeg([
            "-ss", String(seconds), "-i", path, "-frames:v", "1",
            "-vf", "scale=\(size.width):\(size.height):flags=bilinear",
            "-f", "rawvideo", "-pix_fmt", "rgb24", out,
        ])
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: out)))
        return VideoImage(width: size.width, height: size.height, pixels: bytes)
    }

    /// Mean absolute difference per channel between two same-sized images (0...255).
    static func difference(_ a: VideoImage, _ b: VideoImage) -> Double {
        precondition(a.size == b.size)
        var total = 0
        for index in a.pixels.indices { total += abs(Int(a.pixels[index]) - Int(b.pixels[index])) }
        return Double(total) / Double(a.pixels.count)
    }
}
