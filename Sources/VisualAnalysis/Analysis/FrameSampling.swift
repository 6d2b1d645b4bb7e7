public import MediaCore

/// Picks the frames of an asset worth reading for search: one per stretch in which the
/// picture and its text stay the same, so every slide of a fast-cut talk is read once and a
/// hit's span is the time its text was on screen.
///
/// Small grayscale pictures are taken every `probeStep` seconds. A new stretch starts where
/// the picture differs from the one before by more than `cutThreshold` on average (a cut), or
/// where its strokes moved: the edge pixels (3×3 contrast over 40 levels) of the two pictures
/// differ in more than `textChangeThreshold` of the places either has one (new text over the
/// same background, which barely moves the average).
public struct FrameSampling: Sendable {
    /// A stretch of the asset and the time of the frame to read for it.
    public struct Sample: Sendable, Hashable {
        public var time: Double
        public var start: Double
        public var end: Double
    }

    public var probeStep: Double
    public var cutThreshold: Double
    public var textChangeThreshold: Double
    /// The probe pictures' longest side, in pixels (text must still leave strokes at this size).
    public var probeSize: Int
    /// At most this many stretches are read (the shortest are merged into their neighbours past it).
    public var maximumSamples: Int

    public init(
        probeStep: Double = 0.5, cutThreshold: Double = 18, textChangeThreshold: Double = 0.15, probeSize: Int = 320,
        maximumSamples: Int = 2_000
    ) {
        self.probeStep = probeStep
        self.cutThreshold = cutThreshold
        self.textChangeThreshold = textChangeThreshold
        self.probeSize = probeSize
        self.maximumSamples = maximumSamples
    }

    public func samples(of asset: MediaAsset, duration: Double) async throws -> [Sample] {
        guard duration > 0 else { return [] }
        var generator = ImageGenerator(asset: asset)
        generator.setTolerance(MediaTime(seconds: probeStep / 2))
        generator.maximumSize = PixelSize(width: probeSize, height: probeSize)
        let times = stride(from: 0.0, to: duration, by: probeStep).map { MediaTime(seconds: $0) }
        var detector = ChangeDetector(cutThreshold: cutThreshold, textChangeThreshold: textChangeThreshold)
        var starts: [Double] = []
        for await result in generator.images(for: times) {
            guard case .success(let requested, let image, _) = result else { continue }
            if detector.startsStretch(GrayImage(image)) { starts.append(starts.isEmpty ? 0 : requested.seconds) }
        }
        if starts.isEmpty { starts = [0] }
        while starts.count > maximumSamples {
            // Merge the shortest stretch into the one before it.
            let lengths = starts.indices.dropFirst().map { ($0, (($0 + 1 < starts.count ? starts[$0 + 1] : duration) - starts[$0])) }
            guard let shortest = lengths.min(by: { $0.1 < $1.1 }) else { break }
            starts.remove(at: shortest.0)
        }
        return Self.stretches(starting: starts, duration: duration)
    }

    /// One sample per stretch, read half a second in (or in its middle when it is shorter).
    static func stretches(starting starts: [Double], duration: Double) -> [Sample] {
        starts.enumerated().map { index, start in
            let end = index + 1 < starts.count ? starts[index + 1] : duration
            return Sample(time: min(start + 0.5, (start + end) / 2), start: start, end: end)
        }
    }

    /// Decides, picture by picture, where a new stretch starts: a state machine over the last
    /// picture seen, with no I/O, so it is tested on drawn pictures.
    struct ChangeDetector: Sendable {
        var cutThreshold: Double
        var textChangeThreshold: Double
        private var previous: (gray: [UInt8], edges: [Bool])?

        init(cutThreshold: Double, textChangeThreshold: Double) {
            self.cutThreshold = cutThreshold
            self.textChangeThreshold = textChangeThreshold
        }

        /// Whether `picture` starts a new stretch (the first one always does).
        mutating func startsStretch(_ picture: GrayImage) -> Bool {
            let edges = TextRegionFinder().edges(of: picture)
            defer { previous = (picture.pixels, edges) }
            guard let previous, previous.gray.count == picture.pixels.count else { return true }
            var difference = 0
            var either = 0
            var changed = 0
            for index in picture.pixels.indices {
                difference += abs(Int(picture.pixels[index]) - Int(previous.gray[index]))
                let (was, now) = (previous.edges[index], edges[index])
                if was || now { either += 1 }
                if was != now { changed += 1 }
            }
            if Double(difference) / Double(max(1, picture.pixels.count)) > cutThreshold { return true }
            // A few stray edge pixels (encoding noise) are not new text.
            let minimumEdges = max(20, picture.pixels.count / 2_000)
            return either >= minimumEdges && Double(changed) > textChangeThreshold * Double(either)
        }
    }
}
