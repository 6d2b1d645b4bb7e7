import Foundation
import MediaCore

/// A frame as separate planes — luma and the three colour channels — so a text region can be
/// read from whichever plane shows its text with the most contrast (pink code on a dark
/// editor is clearer in the red plane than in luma), and turned to undo a slight skew.
struct ColorPicture: Sendable {
    let width: Int
    let height: Int
    /// BT.601 luma, then red, green and blue, each `width * height` bytes.
    var planes: [[UInt8]]

    init(width: Int, height: Int, planes: [[UInt8]]) {
        self.width = width
        self.height = height
        self.planes = planes
    }

    init(_ image: VideoImage) {
        let count = image.width * image.height
        var luma = [UInt8](repeating: 0, count: count)
        var red = luma
        var green = luma
        var blue = luma
        image.pixels.withUnsafeBufferPointer { rgb in
            for index in 0..<count {
                let r = rgb[index * 3]
                let g = rgb[index * 3 + 1]
                let b = rgb[index * 3 + 2]
                red[index] = r
                green[index] = g
                blue[index] = b
                luma[index] = UInt8((Int(r) * 77 + Int(g) * 150 + Int(b) * 29) >> 8)
            }
        }
        self.init(width: image.width, height: image.height, planes: [luma, red, green, blue])
    }

    var luma: GrayImage { GrayImage(width: width, height: height, pixels: planes[0]) }

    /// The picture turned `degrees` counter-clockwise about its centre (bilinear; corners
    /// filled with mid-gray), the way a frame skewed clockwise by that much is set upright.
    func rotated(by degrees: Double) -> ColorPicture {
        let radians = degrees * .pi / 180
        let cosine = cos(radians)
        let sine = sin(radians)
        let cx = Double(width) / 2
        let cy = Double(height) / 2
        let w = width
        let h = height
        let turned = planes.map { plane -> [UInt8] in
            var out = [UInt8](repeating: 128, count: w * h)
            plane.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBufferPointer { target in
                    for y in 0..<h {
                        let dy = Double(y) - cy
                        for x in 0..<w {
                            // The source of an output pixel: the output point turned back.
                            let dx = Double(x) - cx
                            let sx = cx + dx * cosine - dy * sine
                            let sy = cy + dx * sine + dy * cosine
                            guard sx >= 0, sy >= 0, sx < Double(w - 1), sy < Double(h - 1) else { continue }
                            let x0 = Int(sx)
                            let y0 = Int(sy)
                            let fx = sx - Double(x0)
                            let fy = sy - Double(y0)
                            let top = Double(source[y0 * w + x0]) * (1 - fx) + Double(source[y0 * w + x0 + 1]) * fx
                            let bottom = Double(source[(y0 + 1) * w + x0]) * (1 - fx) + Double(source[(y0 + 1) * w + x0 + 1]) * fx
                            target[y * w + x] = UInt8(max(0, min(255, (top * (1 - fy) + bottom * fy).rounded())))
                        }
                    }
                }
            }
            return out
        }
        return ColorPicture(width: width, height: height, planes: turned)
    }

    /// Where a box found in the picture turned by `degrees` lies in the unturned one (the
    /// smallest upright box around its turned corners).
    func unturned(_ box: TextBox, by degrees: Double) -> TextBox {
        let radians = degrees * .pi / 180
        let cx = Double(width) / 2
        let cy = Double(height) / 2
        var xs: [Double] = []
        var ys: [Double] = []
        for (x, y) in [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)] {
            let dx = Double(x) - cx
            let dy = Double(y) - cy
            xs.append(cx + dx * cos(radians) - dy * sin(radians))
            ys.append(cy + dx * sin(radians) + dy * cos(radians))
        }
        let minX = Int(xs.min()!.rounded(.down))
        let minY = Int(ys.min()!.rounded(.down))
        return TextBox(x: minX, y: minY, width: Int(xs.max()!.rounded(.up)) - minX, height: Int(ys.max()!.rounded(.up)) - minY)
    }
}
