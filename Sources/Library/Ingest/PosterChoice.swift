public import MediaCore

/// Which picture becomes an asset's poster: the file's embedded cover art when it has one,
/// else the most representative of a few frames sampled through the item — not the first
/// frame, which is so often black, a fade or a title card.
///
/// A frame's score favours detail (spread of luminance, edges) and penalises pictures that are
/// nearly black, nearly white or nearly one colour; pure, so it is tested on made-up pictures.
public enum PosterChoice {
    /// Where frames are sampled, as fractions of the duration.
    public static let sampleFractions: [Double] = [0.1, 0.2, 0.3, 0.4, 0.5]

    /// How much a picture is worth as a poster (higher is better); about 0 for a black or
    /// uniform picture.
    public static func score(_ image: VideoImage) -> Double {
        let stats = statistics(of: image)
        // Near-black, near-white or flat: worth (almost) nothing however sharp its noise is.
        if stats.mean < 16 || stats.mean > 245 || stats.deviation < 6 { return stats.deviation / 100 }
        // Detail: luminance spread plus edge strength (a blurred frame has little of the latter);
        // a mid-grey exposure is preferred a little over a very dark or very bright one.
        let exposure = 1 - abs(stats.mean - 128) / 256
        return (stats.deviation + 2 * stats.edges) * exposure
    }

    /// The index of the best-scoring picture, `nil` for none.
    public static func best(of images: [VideoImage]) -> Int? {
        images.indices.max { score(images[$0]) < score(images[$1]) }
    }

    /// Mean and standard deviation of luminance, and the mean absolute horizontal and vertical
    /// luminance step, over a grid of at most about 160×90 samples.
    static func statistics(of image: VideoImage) -> (mean: Double, deviation: Double, edges: Double) {
        guard image.width > 1, image.height > 1 else { return (0, 0, 0) }
        let stepX = max(1, image.width / 160)
        let stepY = max(1, image.height / 90)
        func luma(_ x: Int, _ y: Int) -> Double {
            let p = image.pixel(x: x, y: y)
            return 0.2126 * Double(p.red) + 0.7152 * Double(p.green) + 0.0722 * Double(p.blue)
        }
        var sum = 0.0
        var squares = 0.0
        var edgeSum = 0.0
        var count = 0.0
        var y = 0
        while y < image.height - stepY {
            var x = 0
            while x < image.width - stepX {
                let value = luma(x, y)
                sum += value
                squares += value * value
                edgeSum += abs(value - luma(x + stepX, y)) + abs(value - luma(x, y + stepY))
                count += 1
                x += stepX
            }
            y += stepY
        }
        guard count > 0 else { return (0, 0, 0) }
        let mean = sum / count
        return (mean, (max(0, squares / count - mean * mean)).squareRoot(), edgeSum / (2 * count))
    }
}
