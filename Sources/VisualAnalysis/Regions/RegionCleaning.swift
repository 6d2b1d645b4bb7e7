import Foundation

/// Pixel work that makes a cut-out region look like a page: dark text on white, nothing else.
extension GrayImage {
    /// The share of pixels at or below `threshold`. Text covers less of its region than its
    /// ground does, so a region whose dark class is the larger one holds light text. (The
    /// region's edge is no guide: a region that takes in a panel's side has the picture
    /// around the panel along its edge.)
    func darkShare(threshold: Int) -> Double {
        let counts = histogram
        return Double(counts[0...max(0, min(255, threshold))].reduce(0, +)) / Double(max(1, pixels.count))
    }

    /// The median gray level of the pixels above `threshold` (a region's light ground).
    func medianAbove(_ threshold: Int) -> Int {
        let counts = histogram
        let start = max(0, min(255, threshold + 1))
        let total = counts[start...].reduce(0, +)
        var seen = 0
        for level in start..<256 {
            seen += counts[level]
            if seen * 2 >= total, total > 0 { return level }
        }
        return 255
    }

    /// The picture with dark pieces that touch its edge made white: the sides of panels and
    /// strips, and the picture around them, which a region's margin takes in. Text lies inside
    /// its region (the region is the letters' box grown by the joining dilation and a margin).
    func withoutBorderInk(below level: UInt8 = 128) -> GrayImage {
        var removed = [Bool](repeating: false, count: pixels.count)
        var stack: [Int] = []
        func push(_ index: Int) {
            if !removed[index], pixels[index] < level {
                removed[index] = true
                stack.append(index)
            }
        }
        for x in 0..<width {
            push(x)
            push((height - 1) * width + x)
        }
        for y in 0..<height {
            push(y * width)
            push(y * width + width - 1)
        }
        while let index = stack.popLast() {
            let x = index % width
            let y = index / width
            for dy in -1...1 {
                let ny = y + dy
                guard ny >= 0, ny < height else { continue }
                for dx in -1...1 {
                    let nx = x + dx
                    guard nx >= 0, nx < width else { continue }
                    push(ny * width + nx)
                }
            }
        }
        guard removed.contains(true) else { return self }
        // One pixel around what was taken out goes too (its anti-aliased rim).
        let grown = TextRegionFinder.dilated(removed, width: width, height: height, by: (3, 3))
        var copy = self
        for index in copy.pixels.indices where grown[index] { copy.pixels[index] = 255 }
        return copy
    }

    /// The picture with its contrast stretched: the darkest 1 % of pixels (the ink) and
    /// darker become black, `ground` and lighter white. A dim region (grey code on a grey
    /// editor) then meets the white margin around it without an edge of its own: with the
    /// ground left grey, Tesseract's split put ground and ink on one side and read the
    /// region's outline as marks ('_//', a lone '1' as 'Hi').
    func stretched(ground: Int) -> GrayImage {
        let counts = histogram
        var ink = 0
        var seen = 0
        for (level, count) in counts.enumerated() {
            seen += count
            if seen * 100 >= pixels.count {
                ink = level
                break
            }
        }
        guard ground - ink >= 16 else { return self }
        var table = [UInt8](repeating: 0, count: 256)
        for level in 0..<256 {
            table[level] = UInt8(max(0, min(255, (level - ink) * 255 / (ground - ink))))
        }
        var copy = self
        copy.pixels.withUnsafeMutableBufferPointer { p in
            for index in p.indices { p[index] = table[Int(p[index])] }
        }
        return copy
    }
}

extension GrayImage {
    /// Dark text on a ground whose lightness changes along the line (text across a picture's
    /// light and dark patches) put on an even white ground: each pixel divided by the local
    /// ground, the greatest value of the grain-smoothed picture within `radius` pixels (the
    /// mean over half that radius first, so grain's light specks are not taken for ground).
    func flattened(radius: Int) -> GrayImage {
        guard width > 2, height > 2, radius > 0 else { return self }
        let smooth = boxBlurred(radius: Swift.max(1, radius / 2))
        // The sliding maximum along rows, then along columns.
        var rows = smooth
        for y in 0..<height {
            let row = y * width
            for x in 0..<width {
                var value: UInt8 = 0
                for dx in max(0, x - radius)...min(width - 1, x + radius) { value = Swift.max(value, smooth[row + dx]) }
                rows[row + x] = value
            }
        }
        var copy = self
        for y in 0..<height {
            for x in 0..<width {
                var ground: UInt8 = 0
                for dy in max(0, y - radius)...min(height - 1, y + radius) { ground = Swift.max(ground, rows[dy * width + x]) }
                let index = y * width + x
                copy.pixels[index] = UInt8(Swift.min(255, Int(pixels[index]) * 255 / Swift.max(1, Int(ground))))
            }
        }
        return copy
    }

    /// The mean of each pixel's (2 `radius` + 1)² square (clipped at the edges), separably.
    func boxBlurred(radius: Int) -> [UInt8] {
        var rows = [Int](repeating: 0, count: pixels.count)
        for y in 0..<height {
            let row = y * width
            var sum = 0
            var count = 0
            for x in 0..<Swift.min(width, radius) {
                sum += Int(pixels[row + x])
                count += 1
            }
            for x in 0..<width {
                if x + radius < width {
                    sum += Int(pixels[row + x + radius])
                    count += 1
                }
                if x - radius - 1 >= 0 {
                    sum -= Int(pixels[row + x - radius - 1])
                    count -= 1
                }
                rows[row + x] = sum / count
            }
        }
        var out = [UInt8](repeating: 0, count: pixels.count)
        for x in 0..<width {
            var sum = 0
            var count = 0
            for y in 0..<Swift.min(height, radius) {
                sum += rows[y * width + x]
                count += 1
            }
            for y in 0..<height {
                if y + radius < height {
                    sum += rows[(y + radius) * width + x]
                    count += 1
                }
                if y - radius - 1 >= 0 {
                    sum -= rows[(y - radius - 1) * width + x]
                    count -= 1
                }
                out[y * width + x] = UInt8(sum / count)
            }
        }
        return out
    }
}

extension GrayImage {
    /// The share of pixels between ink and ground (over 60, under 230) of a stretched picture:
    /// small on a flat ground (code, slides), large over clutter.
    var midToneShare: Double {
        guard !pixels.isEmpty else { return 0 }
        return Double(pixels.reduce(0) { $0 + ($1 > 60 && $1 < 230 ? 1 : 0) }) / Double(pixels.count)
    }

    /// Mid-tones darkened: each level raised to `gamma` on a 0–1 scale (black and white stay).
    func darkened(gamma: Double) -> GrayImage {
        var table = [UInt8](repeating: 0, count: 256)
        for level in 0..<256 { table[level] = UInt8((255 * pow(Double(level) / 255, gamma)).rounded()) }
        var copy = self
        copy.pixels.withUnsafeMutableBufferPointer { p in
            for index in p.indices { p[index] = table[Int(p[index])] }
        }
        return copy
    }
}
