import CFFmpeg

/// The work behind one iteration of an `ImageSequence`, run on a pool thread: opens the
/// asset once, visits the requested times in ascending order and hands results back in
/// request order.
struct ImageGenerationJob: Sendable {
    let source: AssetSource
    let times: [MediaTime]
    let toleranceBefore: MediaTime
    let toleranceAfter: MediaTime
    let maximumSize: PixelSize?
    let appliesRotation: Bool
    /// Receives the decoder's work counts when the job ends (tests and benchmarks).
    var statistics: (@Sendable (ImageGenerationStatistics) -> Void)?

    func run(flag: CancellationFlag, yield: (GeneratedImage) -> Void) {
        var results = [GeneratedImage?](repeating: nil, count: times.count)
        var nextToYield = 0
        func deliver(_ index: Int, _ result: GeneratedImage) {
            results[index] = result
            while nextToYield < results.count, let ready = results[nextToYield] {
                yield(ready)
                results[nextToYield] = nil
                nextToYield += 1
            }
        }
        var order: [Int] = []
        for (index, time) in times.enumerated() {
            if time.isNumeric && time >= .zero {
                order.append(index)
            } else {
                deliver(
                    index,
                    .failure(
                        requestedTime: time,
                        error: MediaError(
                            .invalidTime, url: source.displayName, message: "cannot make an image at time \(time)")))
            }
        }
        guard !order.isEmpty else { return }
        order.sort { times[$0] < times[$1] }

        let sampler: FrameSampler
        let converter: FrameConverter
        do {
            let input = try FormatInput(source: source, flag: flag)
            let reader = try FrameReader(input: input)
            let source = self.source
            sampler = FrameSampler(reader: reader) {
                try FrameReader(input: FormatInput(source: source, flag: flag))
            }
            let rotation = appliesRotation ? AssetInspection.displayRotation(reader.stream) : 0
            var aspect = reader.stream.pointee.sample_aspect_ratio
            if aspect.num <= 0 { aspect = reader.stream.pointee.codecpar.pointee.sample_aspect_ratio }
            converter = FrameConverter(maximumSize: maximumSize, rotation: rotation, pixelAspect: aspect)
        } catch {
            for index in order { deliver(index, .failure(requestedTime: times[index], error: error)) }
            return
        }
        let reader = sampler.reader
        defer {
            statistics?(
                ImageGenerationStatistics(
                    seeks: sampler.seeks, decodedFrames: sampler.decodedFrames,
                    keyframeOnlyDecodes: sampler.keyframeDecodes))
        }
        let base = reader.timeBase
        for index in order {
            let time = times[index]
            if flag.isCancelled {
                deliver(index, .failure(requestedTime: time, error: CancellationError()))
                continue
            }
            let target = LibAV.timestamp(time, base) + reader.startOffset
            let lower =
                toleranceBefore.isPositiveInfinity
                ? Int64.min / 4
                : target - max(0, LibAV.timestamp(toleranceBefore, base))
            let upper =
                toleranceAfter.isPositiveInfinity
                ? Int64.max / 4
                : target + max(0, LibAV.timestamp(toleranceAfter, base))
            do {
                let frame = try sampler.frame(
                    target: target, lower: lower, upper: upper,
                    boundedAfter: !toleranceAfter.isPositiveInfinity)
                let pts = FrameReader.timestamp(of: frame)
                let image = try converter.image(from: frame, name: source.displayName)
                deliver(
                    index,
                    .success(
                        requestedTime: time, image: image,
                        actualTime: LibAV.time(pts - reader.startOffset, base)))
            } catch {
                deliver(index, .failure(requestedTime: time, error: flag.isCancelled ? CancellationError() : error))
            }
        }
    }
}

/// How much decoding one run of `images(for:)` did.
struct ImageGenerationStatistics: Sendable {
    var seeks: Int
    var decodedFrames: Int
    var keyframeOnlyDecodes: Int
}
