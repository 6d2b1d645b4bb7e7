/// Turns one 8-bit picture plane by a multiple of 90° clockwise: how the re-encoding export
/// makes phone video (stored sideways, with a display matrix) upright.
enum PlaneRotation {
    /// Copies the `width`×`height` plane at `source` into `target`, turned by `clockwise`
    /// degrees (90, 180 or 270); the target is `height`×`width` for quarter turns.
    static func rotate(
        _ source: UnsafePointer<UInt8>, stride sourceStride: Int, width: Int, height: Int,
        into target: UnsafeMutablePointer<UInt8>, stride targetStride: Int, clockwise: Int
    ) {
        switch clockwise {
        case 90:
            for row in 0..<width {
                let out = target + row * targetStride
                for column in 0..<height { out[column] = source[(height - 1 - column) * sourceStride + row] }
            }
        case 180:
            for row in 0..<height {
                let out = target + row * targetStride
                let input = source + (height - 1 - row) * sourceStride
                for column in 0..<width { out[column] = input[width - 1 - column] }
            }
        case 270:
            for row in 0..<width {
                let out = target + row * targetStride
                for column in 0..<height { out[column] = source[column * sourceStride + width - 1 - row] }
            }
        default:
            for row in 0..<height { (target + row * targetStride).update(from: source + row * sourceStride, count: width) }
        }
    }
}
