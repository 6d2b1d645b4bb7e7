import CFFmpeg

/// Turns decoded frames into `VideoImage`s of a bounded size with pixel aspect and display
/// rotation applied, reusing one scaler. Lives on one pool thread.
final class FrameConverter {
    let maximumSize: PixelSize?
    let rotation: Int
    let pixelAspect: AVRational
    private var scaler: OpaquePointer?

    init(maximumSize: PixelSize?, rotation: Int, pixelAspect: AVRational) {
        self.maximumSize = maximumSize
        self.rotation = rotation
        self.pixelAspect = pixelAspect
    }

    deinit { sws_freeContext(scaler) }

    /// The size a frame of `width`×`height` is shown at (before rotation), fitted in the maximum.
    func outputSize(width: Int, height: Int) -> PixelSize {
        var displayWidth = Double(width)
        let displayHeight = Double(height)
        if pixelAspect.num > 0, pixelAspect.den > 0, pixelAspect.num != pixelAspect.den {
            displayWidth *= Double(pixelAspect.num) / Double(pixelAspect.den)
        }
        let turned = rotation % 180 != 0
        var scale = 1.0
        if let maximumSize {
            let (seenWidth, seenHeight) = turned ? (displayHeight, displayWidth) : (displayWidth, displayHeight)
            if maximumSize.width > 0 { scale = min(scale, Double(maximumSize.width) / seenWidth) }
            if maximumSize.height > 0 { scale = min(scale, Double(maximumSize.height) / seenHeight) }
        }
        return PixelSize(
            width: max(1, Int((displayWidth * scale).rounded())),
            height: max(1, Int((displayHeight * scale).rounded())))
    }

    func image(from frame: UnsafeMutablePointer<AVFrame>, name: String) throws -> VideoImage {
        let width = Int(frame.pointee.width)
        let height = Int(frame.pointee.height)
        guard width > 0, height > 0 else {
            throw MediaError(.decode, url: name, message: "decoded frame has no picture")
        }
        let size = outputSize(width: width, height: height)
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        scaler = sws_getCachedContext(
            scaler, Int32(width), Int32(height), format,
            Int32(size.width), Int32(size.height), AV_PIX_FMT_RGB24,
            SWS_BILINEAR, nil, nil, nil)
        guard let scaler else {
            throw MediaError(.decode, url: name, message: "cannot convert pixel format \(LibAV.string(av_get_pix_fmt_name(format)) ?? "?")")
        }
        // swscale's unscaled YUV→RGB24 path writes whole 16-pixel blocks, up to 24 bytes past a
        // row whose width is not a multiple of 16 (past the end of a tightly sized buffer): scale
        // into rows with room for whole blocks, then pack them.
        let packedStride = size.width * 3
        let stride = (((size.width + 15) & ~15) * 3 + 63) & ~63
        var scaled = [UInt8](repeating: 0, count: stride * size.height)
        let status = scaled.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var destinations: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(stride), 0, 0, 0]
            return withUnsafePointer(to: &frame.pointee.data) { dataTuple in
                withUnsafePointer(to: &frame.pointee.linesize) { linesizeTuple in
                    dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                        linesizeTuple.withMemoryRebound(to: Int32.self, capacity: 8) { linesizes in
                            sws_scale(scaler, data, linesizes, 0, Int32(height), &destinations, &strides)
                        }
                    }
                }
            }
        }
        guard status > 0 else {
            throw LibAV.error(.decode, name, "cannot scale frame", status)
        }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(packedStride * size.height)
        for y in 0..<size.height {
            pixels.append(contentsOf: scaled[y * stride..<y * stride + packedStride])
        }
        return VideoImage(width: size.width, height: size.height, pixels: pixels).rotated(clockwise: rotation)
    }
}
