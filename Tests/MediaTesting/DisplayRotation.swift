public import Foundation

/// A phone-style display rotation written into an MP4: the stored picture stays as it is and
/// the first track header's matrix says "turn a quarter clockwise to show", as phones record
/// portrait video. FFmpeg's muxer has no option for it, so the matrix bytes of the first
/// `tkhd` box (version 0 or 1) are overwritten; the fixture's first track must be the video.
public enum DisplayRotation {
    /// Writes `clip` with a 90° clockwise display matrix to `output` (over `clip` when nil)
    /// and returns where it went. `codedHeight` is the stored picture's height (the matrix's
    /// translation, so the turned picture lands at the origin).
    @discardableResult
    public static func quarterTurnClockwise(_ clip: URL, codedHeight: Int, to output: URL? = nil) throws -> URL {
        var bytes = try Array(Data(contentsOf: clip))
        let tag: [UInt8] = Array("tkhd".utf8)
        guard let at = (4..<(bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == tag }) else {
            throw DisplayRotationError(path: clip.path)
        }
        let matrixOffset = at - 4 + (bytes[at + 4] == 1 ? 60 : 48)
        let matrix: [Int32] = [0, 0x10000, 0, -0x10000, 0, 0, Int32(codedHeight) << 16, 0, 0x4000_0000]
        for (index, value) in matrix.enumerated() {
            let word = UInt32(bitPattern: value)
            for byte in 0..<4 {
                bytes[matrixOffset + index * 4 + byte] = UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32(byte)))
            }
        }
        let destination = output ?? clip
        try Data(bytes).write(to: destination)
        return destination
    }
}

/// The file has no track header to rotate (not an MP4, or no track).
public struct DisplayRotationError: Error, CustomStringConvertible {
    public var path: String
    public var description: String { "no tkhd box in \(path): not an MP4 with a track" }
}
