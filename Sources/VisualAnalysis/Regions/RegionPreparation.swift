/// Turns one text region of a frame into the picture Tesseract reads best: the plane (luma
/// or a colour channel) where its text stands out most, dark text on white (light text when
/// the region's dark class is the larger one; both are read when the region's edge says
/// otherwise), its contrast stretched, dark pieces along its edge taken out, enlarged so the
/// text is about `targetHeight` pixels tall, with a white margin.
struct RegionPreparation: Sendable {
    /// Pixels added around the region before it is cut out.
    var margin = 6
    /// The height a line is enlarged to (small text reads badly; Tesseract likes ~40 px).
    var targetHeight = 44.0
    var maximumScale = 4.0
    /// When a large region read as nothing, it is read again made smaller, down to this scale:
    /// Tesseract read 70 px '特急' on a clean white page as nothing, and at 0.75× of that size
    /// or less correctly. (Making every large region smaller cost more than it saved.)
    var minimumScale = 0.6
    /// A colour plane is used instead of luma only when it separates text from ground this
    /// many times better (Otsu's between-class variance).
    var channelGain = 1.5

    /// A prepared region and how to map its pixels back to the frame.
    struct Prepared: Sendable {
        var image: GrayImage
        /// Frame coordinates of the prepared picture's top-left corner.
        var originX: Double
        var originY: Double
        /// Prepared pixels per frame pixel.
        var scale: Double
        /// The region in the other polarity, when its polarity is in doubt: the reading
        /// Tesseract is surer of wins.
        var alternative: GrayImage? = nil

        /// `box` (in the prepared picture) in frame pixels.
        func frameBox(_ box: TextBox) -> TextBox {
            let x = Int((originX + Double(box.x) / scale).rounded(.down))
            let y = Int((originY + Double(box.y) / scale).rounded(.down))
            return TextBox(
                x: x, y: y, width: Int((originX + Double(box.maxX) / scale).rounded(.up)) - x,
                height: Int((originY + Double(box.maxY) / scale).rounded(.up)) - y)
        }
    }

    /// `region` of `picture` prepared for reading (`grainy`: the picture is noisy, see `page`).
    /// `shrinking`: large text is made smaller towards `targetHeight` too.
    func prepare(_ region: TextBox, of picture: ColorPicture, grainy: Bool = false, shrinking: Bool = false) -> Prepared {
        let x0 = max(0, region.x - margin)
        let y0 = max(0, region.y - margin)
        let x1 = min(picture.width, region.maxX + margin)
        let y1 = min(picture.height, region.maxY + margin)
        var best: (crop: GrayImage, threshold: Int, separation: Double)?
        for plane in picture.planes {
            let crop = Self.cut(plane, width: picture.width, x0: x0, y0: y0, x1: x1, y1: y1)
            let (threshold, separation) = crop.otsuSplit
            if best == nil || separation > best!.separation * channelGain { best = (crop, threshold, separation) }
        }
        let (crop, threshold) = (best!.crop, best!.threshold)
        var scale = min(maximumScale, max(shrinking ? minimumScale : 1, targetHeight / Double(max(1, region.height))))
        if abs(scale - 1) <= 0.05 { scale = 1 }
        // On a grainy picture the grain joins letters to the edge: nothing is taken out there.
        let clean = !grainy
        // Light text when its dark class is the larger one; where the region's edge says the
        // other (a panel's side, or text over a ground of two colours), both are read.
        let darkGround = crop.darkShare(threshold: threshold) > 0.5
        let pad = 10
        let page = { (invert: Bool) in
            Self.page(crop, threshold: threshold, invert: invert, clean: clean, scale: scale).padded(by: pad, value: 255)
        }
        let edgeSaysDark = Self.groundIsDark(crop, threshold: threshold)
        return Prepared(
            image: page(darkGround), originX: Double(x0) - Double(pad) / scale, originY: Double(y0) - Double(pad) / scale,
            scale: scale, alternative: edgeSaysDark == darkGround ? nil : page(edgeSaysDark))
    }

    /// `crop` as dark text on white: inverted when its text is light, its contrast stretched,
    /// dark pieces along its edge taken out when `clean`, and enlarged by `scale`.
    static func page(_ crop: GrayImage, threshold: Int, invert: Bool, clean: Bool, scale: Double) -> GrayImage {
        var crop = crop
        var threshold = threshold
        if invert {
            crop = crop.inverted()
            threshold = 255 - threshold
        }
        // On a grainy picture the ground is evened out first: a line crossing light and dark
        // patches of a busy picture otherwise splits into a part read and a part lost (noisy
        // frames of the tuning half, Japanese 53 -> 26 %; done on every region it cost
        // captions and signs English 11 -> 27 % and 3 -> 6 %).
        if !clean { crop = crop.flattened(radius: max(2, crop.height / 6)) }
        crop = crop.stretched(ground: crop.medianAbove(threshold))
        // On a flat ground (few pixels between ink and ground: code, slides) mid-tones are
        // darkened, so ink fainter than the rest of its line (a pink keyword, a `>`) is not
        // split off with the ground (tuning half: code 1.8 -> 0.1 %; done on every clean
        // region it added clutter to captions, 11 -> 42 %).
        if clean, crop.midToneShare < 0.15 { crop = crop.darkened(gamma: 2) }
        if clean { crop = crop.withoutBorderInk() }
        return scale != 1 ? crop.resized(by: scale) : crop
    }

    /// A region read from the outlined-caption mask: only the light fill counts as ink.
    func prepareOutlined(_ region: TextBox, of picture: ColorPicture) -> Prepared {
        let x0 = max(0, region.x - 8)
        let y0 = max(0, region.y - 8)
        let x1 = min(picture.width, region.maxX + 8)
        let y1 = min(picture.height, region.maxY + 8)
        let crop = Self.cut(picture.planes[0], width: picture.width, x0: x0, y0: y0, x1: x1, y1: y1)
        let pad = 10
        return Prepared(
            image: crop.binarized(threshold: 199).inverted().padded(by: pad, value: 255), originX: Double(x0 - pad), originY: Double(y0 - pad), scale: 1)
    }

    static func cut(_ plane: [UInt8], width: Int, x0: Int, y0: Int, x1: Int, y1: Int) -> GrayImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 { pixels += plane[(y * width + x0)..<(y * width + x1)] }
        return GrayImage(width: x1 - x0, height: y1 - y0, pixels: pixels)
    }

    /// Whether most of the crop's edge is darker than the split: then the text is light.
    static func groundIsDark(_ crop: GrayImage, threshold: Int) -> Bool {
        var light = 0
        var total = 0
        for x in 0..<crop.width {
            for y in [0, crop.height - 1] {
                total += 1
                if Int(crop.pixels[y * crop.width + x]) > threshold { light += 1 }
            }
        }
        for y in 0..<crop.height {
            for x in [0, crop.width - 1] {
                total += 1
                if Int(crop.pixels[y * crop.width + x]) > threshold { light += 1 }
            }
        }
        return light * 2 < total
    }
}

extension GrayImage {
    /// The picture resized by `scale` (bilinear, pixel centres aligned).
    func resized(by scale: Double) -> GrayImage {
        let newWidth = max(1, Int((Double(width) * scale).rounded()))
        let newHeight = max(1, Int((Double(height) * scale).rounded()))
        var out = [UInt8](repeating: 0, count: newWidth * newHeight)
        let w = width
        let h = height
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<newHeight {
                    let sy = max(0, (Double(y) + 0.5) / scale - 0.5)
                    let y0 = min(h - 1, Int(sy))
                    let y1 = min(h - 1, y0 + 1)
                    let fy = sy - Double(y0)
                    for x in 0..<newWidth {
                        let sx = max(0, (Double(x) + 0.5) / scale - 0.5)
                        let x0 = min(w - 1, Int(sx))
                        let x1 = min(w - 1, x0 + 1)
                        let fx = sx - Double(x0)
                        let top = Double(source[y0 * w + x0]) * (1 - fx) + Double(source[y0 * w + x1]) * fx
                        let bottom = Double(source[y1 * w + x0]) * (1 - fx) + Double(source[y1 * w + x1]) * fx
                        target[y * newWidth + x] = UInt8(max(0, min(255, (top * (1 - fy) + bottom * fy).rounded())))
                    }
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out, scale: scale)
    }

    /// The picture with a `pad`-pixel border of `value` around it.
    func padded(by pad: Int, value: UInt8) -> GrayImage {
        let newWidth = width + 2 * pad
        var out = [UInt8](repeating: value, count: newWidth * (height + 2 * pad))
        for y in 0..<height {
            out.replaceSubrange(((y + pad) * newWidth + pad)..<((y + pad) * newWidth + pad + width), with: pixels[(y * width)..<(y * width + width)])
        }
        return GrayImage(width: newWidth, height: height + 2 * pad, pixels: out, scale: scale)
    }

    /// The 3×3 mean of each pixel (grain smoothed before edges are looked for).
    func smoothed() -> GrayImage {
        var out = pixels
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                var sum = 0
                for dy in -1...1 {
                    for dx in -1...1 { sum += Int(pixels[(y + dy) * width + x + dx]) }
                }
                out[y * width + x] = UInt8(sum / 9)
            }
        }
        return GrayImage(width: width, height: height, pixels: out, scale: scale)
    }
}
