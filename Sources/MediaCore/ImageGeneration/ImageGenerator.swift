/// Makes still images (thumbnails) of an asset's video at requested times without blocking
/// the caller, like `AVAssetImageGenerator`.
///
/// The tolerances say how far from the requested time the picture may be; the defaults
/// (infinite) let the generator use the nearest keyframe, the fastest choice, and zero asks
/// for the exact frame on screen at that time. A returned `actualTime` always lies inside
/// `[requested − toleranceBefore, requested + toleranceAfter]` when the window is at least a
/// frame long; for narrower windows (exact requests) it is the time of the frame on screen
/// at the window's start. Display rotation and pixel aspect are applied and the image is
/// fitted inside `maximumSize` with its aspect kept.
public struct ImageGenerator: Sendable {
    public let asset: MediaAsset
    public var requestedTimeToleranceBefore: MediaTime = .positiveInfinity
    public var requestedTimeToleranceAfter: MediaTime = .positiveInfinity
    /// The largest image wanted; `nil` for the full display size. A zero component is unbounded.
    public var maximumSize: PixelSize?
    /// Whether to turn the picture by the track's display rotation (phone video); true by default.
    public var appliesPreferredTrackTransform = true
    /// Receives decoding statistics at the end of each run (tests and benchmarks).
    var statistics: (@Sendable (ImageGenerationStatistics) -> Void)?

    public init(asset: MediaAsset) {
        self.asset = asset
    }

    /// Sets both tolerances to `tolerance`, or to zero with `exact`.
    public mutating func setTolerance(_ tolerance: MediaTime) {
        requestedTimeToleranceBefore = tolerance
        requestedTimeToleranceAfter = tolerance
    }

    /// The image at `time` and the time of the frame it shows.
    public func image(at time: MediaTime) async throws -> (image: VideoImage, actualTime: MediaTime) {
        for await result in images(for: [time]) {
            return (try result.image, try result.actualTime)
        }
        try Task.checkCancellation()
        throw CancellationError()
    }

    /// Images for `times`, delivered in request order as an async sequence. Internally the
    /// times are visited in ascending order on one demuxer and decoder. A time that cannot
    /// be served gives a `.failure` element and the sequence goes on; cancelling the
    /// iterating task stops the work.
    public func images(for times: [MediaTime]) -> ImageSequence {
        ImageSequence(
            job: ImageGenerationJob(
                source: asset.source, times: times,
                toleranceBefore: requestedTimeToleranceBefore, toleranceAfter: requestedTimeToleranceAfter,
                maximumSize: maximumSize, appliesRotation: appliesPreferredTrackTransform, statistics: statistics),
            pool: asset.pool)
    }
}

/// The async sequence `ImageGenerator.images(for:)` returns; each iteration runs the work anew.
///
/// The generator runs at most `bufferLimit` images ahead of the consumer, so a slow consumer
/// (encoding full-size JPEGs, say) holds a few decoded pictures in memory, not all of them.
public struct ImageSequence: AsyncSequence, Sendable {
    public typealias Element = GeneratedImage
    let job: ImageGenerationJob
    let pool: MediaThreadPool
    static let bufferLimit = 4

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<GeneratedImage>.Iterator
        let window: DeliveryWindow

        public mutating func next() async -> GeneratedImage? {
            let element = await base.next()
            if element != nil { window.consumed() }
            return element
        }
    }

    public func makeAsyncIterator() -> Iterator {
        let flag = CancellationFlag()
        let window = DeliveryWindow(limit: Self.bufferLimit)
        let (stream, continuation) = AsyncStream.makeStream(of: GeneratedImage.self)
        continuation.onTermination = { _ in
            flag.cancel()
            window.close()
        }
        let job = self.job
        pool.enqueue {
            job.run(flag: flag) { result in
                window.reserve(flag: flag)
                continuation.yield(result)
            }
            continuation.finish()
        }
        return Iterator(base: stream.makeAsyncIterator(), window: window)
    }
}
