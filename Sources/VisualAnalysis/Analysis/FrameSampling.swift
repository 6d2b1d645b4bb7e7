import MediaCore

/// Picks the frames of an asset worth reading for search: one per shot, or one every
/// `interval` seconds, whichever gives fewer frames.
///
/// Shots are found by comparing small grayscale pictures taken every `probeStep` seconds:
/// a picture that differs from the one before by more than `cutThreshold` (mean absolute
/// difference, 0–255) starts a new shot.
public struct FrameSampling: Sendable {
    /// A stretch of the asset and the time of the frame to read for it.
    public struct Sample: Sendable, Hashable {
        public var time: Double
        public var start: Double
        public var end: Double
    }

    public var interval: Double
    public var probeStep: Double
    public var cutThreshold: Double

    public init(interval: Double = 10, probeStep: Double = 0.5, cutThreshold: Double = 18) {
        self.interval = interval
        self.probeStep = probeStep
        self.cutThreshold = cutThreshold
    }

    public func samples(of asset: MediaAsset, duration: Double) async throws -> [Sample] {
        guard duration > 0 else { return [] }
        let regular = stride(from: 0.0, to: duration, by: interval).map { start in
            Sample(time: min(start + min(0.5, duration / 2), duration), start: start, end: min(duration, start + interval))
        }
        let shots = try await shots(of: asset, duration: duration)
        return shots.count <= regular.count && !shots.isEmpty ? shots : regular
    }

    /// One sample per shot, read half a second in (or in its middle when it is shorter).
    func shots(of asset: MediaAsset, duration: Double) async throws -> [Sample] {
        var generator = ImageGenerator(asset: asset)
        generator.setTolerance(MediaTime(seconds: probeStep / 2))
        generator.maximumSize = PixelSize(width: 48, height: 48)
        let times = stride(from: 0.0, to: duration, by: probeStep).map { MediaTime(seconds: $0) }
        var starts: [Double] = []
        var previous: [Int]?
        for await result in generator.images(for: times) {
            guard case .success(let requested, let image, _) = result else { continue }
            let gray = (0..<(image.width * image.height)).map { i in
                (Int(image.pixels[i * 3]) * 77 + Int(image.pixels[i * 3 + 1]) * 150 + Int(image.pixels[i * 3 + 2]) * 29) >> 8
            }
            if let previous, previous.count == gray.count {
                let difference = Double(zip(previous, gray).map { abs($0 - $1) }.reduce(0, +)) / Double(gray.count)
                if difference > cutThreshold { starts.append(requested.seconds) }
            } else if previous == nil {
                starts.append(0)
            }
            previous = gray
        }
        return starts.enumerated().map { index, start in
            let end = index + 1 < starts.count ? starts[index + 1] : duration
            return Sample(time: min(start + 0.5, (start + end) / 2), start: start, end: end)
        }
    }
}
