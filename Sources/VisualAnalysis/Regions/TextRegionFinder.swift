import Foundation

/// Finds where text lies in a frame before anything is read, whatever its colour, polarity
/// or script: strokes are places of strong local contrast, and a run of them joined
/// sideways is a line of text.
///
/// Edges are the 3×3 morphological gradient (brightest minus darkest neighbour) above
/// `edgeThreshold`; they are joined by a `joinWidth` × `joinHeight` dilation and each
/// connected piece whose height, width and share of edge pixels fit a line of text is a
/// region. Over busy pictures the clutter joins into pieces too large to be text; outlined
/// captions there (light letters with a dark rim) are found from `outlinedMask` instead.
/// The numbers were chosen on the tuning half of the evaluation set
/// (`scripts/livetext-eval/`).
struct TextRegionFinder: Sendable {
    var edgeThreshold = 40
    var joinWidth = 15
    var joinHeight = 3
    var minimumHeight = 8
    var maximumHeight = 220
    var minimumWidth = 10
    /// Regions where fewer pixels than this are edges are flat patches, not text.
    var minimumEdgeShare = 0.08

    /// Edge runs longer than this (pixels) in a row or column are the borders of panels, bars
    /// and signs, not strokes of letters: they are taken out, so a caption bar's outline does
    /// not join its lines (and the lines of the strip below it) into one region.
    var longestStroke = 120

    /// A skew is taken only when its rows are this much sharper than the level rows' (turned
    /// frames of the tuning half: 1.4–2.3; level captions over clutter: 1.00–1.03).
    var skewGain = 1.2

    /// Boxes of likely text lines in `image`, top to bottom.
    func regions(in image: GrayImage) -> [TextBox] {
        regions(of: withoutRules(edges(of: image), width: image.width, height: image.height), width: image.width, height: image.height)
    }

    /// `mask` without its long straight horizontal and vertical runs.
    func withoutRules(_ mask: [Bool], width: Int, height: Int) -> [Bool] {
        var out = mask
        for y in 0..<height {
            var x = 0
            while x < width {
                guard mask[y * width + x] else {
                    x += 1
                    continue
                }
                var end = x
                while end < width, mask[y * width + end] { end += 1 }
                if end - x > longestStroke { for i in x..<end { out[y * width + i] = false } }
                x = end
            }
        }
        for x in 0..<width {
            var y = 0
            while y < height {
                guard mask[y * width + x] else {
                    y += 1
                    continue
                }
                var end = y
                while end < height, mask[end * width + x] { end += 1 }
                if end - y > longestStroke { for i in y..<end { out[i * width + x] = false } }
                y = end
            }
        }
        return out
    }

    /// Boxes of the connected pieces of `mask` (after joining) that look like text lines,
    /// with pieces of one line (words of large or spaced-out text) put together.
    func regions(of mask: [Bool], width: Int, height: Int) -> [TextBox] {
        let joined = Self.dilated(mask, width: width, height: height, by: (joinWidth, joinHeight))
        let pieces = Self.components(of: joined, width: width, height: height).compactMap { box -> TextBox? in
            guard box.height >= minimumHeight, box.height <= maximumHeight, box.width >= minimumWidth else { return nil }
            var edgePixels = 0
            for y in box.y..<box.maxY {
                for x in box.x..<box.maxX where mask[y * width + x] { edgePixels += 1 }
            }
            guard Double(edgePixels) >= minimumEdgeShare * Double(box.width * box.height) else { return nil }
            return box
        }
        return Self.lines(of: pieces).sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// Joins pieces that sit on one row (they overlap by half the smaller height, are of
    /// similar height — within 1.5×, or a small mark after them —, and the gap between them is under `gapInHeights` of the taller one).
    static func lines(of pieces: [TextBox], gapInHeights: Double = 0.8) -> [TextBox] {
        var boxes = pieces.sorted { $0.x < $1.x }
        var merged = true
        while merged {
            merged = false
            outer: for i in boxes.indices {
                for j in boxes.indices where j > i {
                    let (a, b) = (boxes[i], boxes[j])
                    let overlap = min(a.maxY, b.maxY) - max(a.y, b.y)
                    let (short, tall) = (min(a.height, b.height), max(a.height, b.height))
                    let gap = max(a.x, b.x) - min(a.maxX, b.maxX)
                    guard overlap * 2 >= short, Double(gap) <= gapInHeights * Double(tall) else { continue }
                    // A small mark inside the line's band ("=", "-", ".") joins the words it
                    // follows; one before them (a bullet) stays apart, and is dropped as texture.
                    let similar = tall * 2 <= short * 3
                    let (small, large) = a.height < b.height ? (a, b) : (b, a)
                    let isMark = small.height * 3 <= large.height * 2 && small.width <= large.height * 2 && small.x > large.x
                    guard similar || (overlap == short && isMark && gap >= 0) else { continue }
                    boxes[i] = a.union(b)
                    boxes.remove(at: j)
                    merged = true
                    break outer
                }
            }
        }
        return boxes
    }

    /// Pixels where the 3×3 neighbourhood spans more than `edgeThreshold` gray levels.
    func edges(of image: GrayImage) -> [Bool] {
        let w = image.width
        let h = image.height
        let maxima = Self.filtered(image.pixels, width: w, height: h, by: max)
        let minima = Self.filtered(image.pixels, width: w, height: h, by: min)
        let threshold = edgeThreshold
        return (0..<(w * h)).map { Int(maxima[$0]) - Int(minima[$0]) > threshold }
    }

    /// Light pixels (≥ 215) with a dark one (≤ 50) within two pixels: the fill of letters
    /// drawn with a dark outline, as TV captions are over busy pictures.
    func outlinedMask(of image: GrayImage) -> [Bool] {
        let dark = image.pixels.map { $0 <= 50 }
        let nearDark = Self.dilated(dark, width: image.width, height: image.height, by: (5, 5))
        return image.pixels.indices.map { image.pixels[$0] >= 215 && nearDark[$0] }
    }

    /// The skew of the text in `image`, in degrees within ±5 (positive: lines rise to the
    /// right... as the projection of its edge pixels shows): the angle at which the rows of
    /// edge pixels are sharpest (largest sum of squared row counts).
    /// Only edge pixels inside `within` (text regions found on the unturned picture) count,
    /// when given: the round shapes and sticks of a busy picture otherwise outweigh the rows of
    /// a caption (a level caption over clutter measured -4°).
    func skewAngle(of image: GrayImage, within boxes: [TextBox]? = nil) -> Double {
        var mask = edges(of: image)
        if let boxes {
            var inside = [Bool](repeating: false, count: mask.count)
            for box in boxes {
                for y in box.y..<box.maxY {
                    for x in box.x..<box.maxX { inside[y * image.width + x] = true }
                }
            }
            for index in mask.indices where !inside[index] { mask[index] = false }
        }
        var xs: [Double] = []
        var ys: [Double] = []
        for y in stride(from: 0, to: image.height, by: 2) {
            for x in stride(from: 0, to: image.width, by: 2) where mask[y * image.width + x] {
                xs.append(Double(x / 2))
                ys.append(Double(y / 2))
            }
        }
        guard xs.count >= 100 else { return 0 }
        var best = 0.0
        var bestScore = -1.0
        var levelScore = 0.0
        for step in -10...10 {
            let angle = Double(step) * 0.5
            let radians = angle * .pi / 180
            let cosine = cos(radians)
            let sine = sin(radians)
            var rows = [Int: Int]()
            for index in xs.indices {
                rows[Int((ys[index] * cosine - xs[index] * sine).rounded()), default: 0] += 1
            }
            let score = rows.values.reduce(0.0) { $0 + Double($1) * Double($1) }
            if step == 0 { levelScore = score }
            if score > bestScore {
                bestScore = score
                best = angle
            }
        }
        return bestScore >= levelScore * skewGain ? best : 0
    }

    /// How grainy the picture is: the median difference between horizontal neighbours on
    /// every fourth row (flat areas dominate, so this is the noise, not the edges).
    func noiseLevel(of image: GrayImage) -> Int {
        var counts = [Int](repeating: 0, count: 256)
        var total = 0
        for y in stride(from: 0, to: image.height, by: 4) {
            let row = y * image.width
            for x in 1..<image.width {
                counts[abs(Int(image.pixels[row + x]) - Int(image.pixels[row + x - 1]))] += 1
                total += 1
            }
        }
        var seen = 0
        for (level, count) in counts.enumerated() {
            seen += count
            if seen * 2 >= total { return level }
        }
        return 0
    }

    // MARK: - Morphology

    /// The 3×3 maximum or minimum of each pixel, separably.
    static func filtered(_ pixels: [UInt8], width: Int, height: Int, by pick: (UInt8, UInt8) -> UInt8) -> [UInt8] {
        var rows = pixels
        for y in 0..<height {
            let row = y * width
            for x in 0..<width {
                var value = pixels[row + x]
                if x > 0 { value = pick(value, pixels[row + x - 1]) }
                if x + 1 < width { value = pick(value, pixels[row + x + 1]) }
                rows[row + x] = value
            }
        }
        var out = rows
        for y in 0..<height {
            for x in 0..<width {
                var value = rows[y * width + x]
                if y > 0 { value = pick(value, rows[(y - 1) * width + x]) }
                if y + 1 < height { value = pick(value, rows[(y + 1) * width + x]) }
                out[y * width + x] = value
            }
        }
        return out
    }

    /// `mask` dilated by a `size.0` × `size.1` rectangle (running counts along rows, then columns).
    static func dilated(_ mask: [Bool], width: Int, height: Int, by size: (Int, Int)) -> [Bool] {
        let (kw, kh) = size
        var horizontal = [Bool](repeating: false, count: mask.count)
        let left = kw / 2
        let right = kw - 1 - left
        for y in 0..<height {
            let row = y * width
            var count = 0
            // Window for x is [x - right, x + left] in the source (a symmetric spread of the mask).
            for x in 0..<min(width, left) where mask[row + x] { count += 1 }
            for x in 0..<width {
                let entering = x + left
                if entering < width, mask[row + entering] { count += 1 }
                let leaving = x - right - 1
                if leaving >= 0, mask[row + leaving] { count -= 1 }
                horizontal[row + x] = count > 0
            }
        }
        var out = [Bool](repeating: false, count: mask.count)
        let up = kh / 2
        let down = kh - 1 - up
        for x in 0..<width {
            var count = 0
            for y in 0..<min(height, up) where horizontal[y * width + x] { count += 1 }
            for y in 0..<height {
                let entering = y + up
                if entering < height, horizontal[entering * width + x] { count += 1 }
                let leaving = y - down - 1
                if leaving >= 0, horizontal[leaving * width + x] { count -= 1 }
                out[y * width + x] = count > 0
            }
        }
        return out
    }

    /// Bounding boxes of the 8-connected pieces of `mask`.
    static func components(of mask: [Bool], width: Int, height: Int) -> [TextBox] {
        var seen = [Bool](repeating: false, count: mask.count)
        var boxes: [TextBox] = []
        var stack: [Int] = []
        for start in mask.indices where mask[start] && !seen[start] {
            seen[start] = true
            stack.append(start)
            var minX = width
            var minY = height
            var maxX = 0
            var maxY = 0
            while let index = stack.popLast() {
                let x = index % width
                let y = index / width
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
                for dy in -1...1 {
                    let ny = y + dy
                    guard ny >= 0, ny < height else { continue }
                    for dx in -1...1 {
                        let nx = x + dx
                        guard nx >= 0, nx < width else { continue }
                        let next = ny * width + nx
                        if mask[next], !seen[next] {
                            seen[next] = true
                            stack.append(next)
                        }
                    }
                }
            }
            boxes.append(TextBox(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1))
        }
        return boxes
    }
}
