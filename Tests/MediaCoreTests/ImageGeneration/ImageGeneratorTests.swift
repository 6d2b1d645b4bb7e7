import Foundation
import MediaTesting
import Synchronization
import Testing

@testable import MediaCore

@Suite struct ImageGeneratorTests {
    /// The frame number a counter-fixture image shows, from its grey level.
    func greyLevel(_ image: VideoImage) -> Double {
        image.averageColor(x: image.width / 4, y: image.height / 4, width: image.width / 2, height: image.height / 2).green
    }

    @Test func actualTimesStayInsideTheToleranceWindowAndMatchThePicture() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
        var generator = ImageGenerator(asset: asset)
        generator.setTolerance(MediaTime(seconds: 0.25))
        var random = SystemRandomNumberGenerator()
        let times = (0..<25).map { _ in MediaTime(seconds: Double.random(in: 0.3...9.5, using: &random), preferredTimescale: 1000) }
        var count = 0
        for await result in generator.images(for: times) {
            let actual = try result.actualTime
            let requested = result.requestedTime
            #expect(abs(actual.seconds - requested.seconds) <= 0.25 + 1e-9, "\(actual) outside ±0.25 s of \(requested)")
            let frame = Int((actual.seconds * 30).rounded())
            #expect(
                abs(greyLevel(try result.image) - MediaFixtures.expectedGrey(frame: frame)) < 4,
                "picture at \(actual) does not show frame \(frame)")
            count += 1
        }
        #expect(count == times.count)
    }

    @Test func aWideToleranceUsesTheKeyframeInsideTheWindow() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
        var generator = ImageGenerator(asset: asset)
        generator.setTolerance(MediaTime(seconds: 1))
        // Keyframes every 2 s: the window 2.1...4.1 holds only the keyframe at 4 s.
        let (image, actual) = try await generator.image(at: MediaTime(seconds: 3.1))
        #expect(actual == MediaTime(seconds: 4))
        #expect(abs(greyLevel(image) - MediaFixtures.expectedGrey(frame: 120)) < 4)
        // Default tolerances (infinite) take the nearest keyframe.
        let (_, nearest) = try await ImageGenerator(asset: asset).image(at: MediaTime(seconds: 4.9))
        #expect(nearest == MediaTime(seconds: 4))
    }

    @Test func zeroToleranceGivesTheFrameOnScreenAtTheRequestedTime() async throws {
        let path = try await MediaFixtures.shared.counter()
        let frameTimes = try FFmpegTool.videoFrameTimes(path)
        var generator = ImageGenerator(asset: MediaAsset(path: path))
        generator.setTolerance(.zero)
        let requests = [0.0, 1.01, 2.51, 3.999, 5.5, 7.77, 9.9].map { MediaTime(seconds: $0, preferredTimescale: 1000) }
        for await result in generator.images(for: requests) {
            let actual = try result.actualTime.seconds
            let expected = try #require(frameTimes.last { $0 <= result.requestedTime.seconds + 1e-6 })
            #expect(abs(actual - expected) < 1e-6, "requested \(result.requestedTime.seconds): got \(actual), on screen \(expected)")
            #expect(abs(greyLevel(try result.image) - MediaFixtures.expectedGrey(frame: Int((actual * 30).rounded()))) < 4)
        }
    }

    @Test func variableFrameRateExactRequestsLandOnRealFrames() async throws {
        let path = try await MediaFixtures.shared.variableFrameRate()
        let frameTimes = try FFmpegTool.videoFrameTimes(path)
        var generator = ImageGenerator(asset: MediaAsset(path: path))
        generator.setTolerance(.zero)
        let requests = stride(from: 0.05, to: 5.9, by: 0.37).map { MediaTime(seconds: $0, preferredTimescale: 1000) }
        var served = 0
        for await result in generator.images(for: requests) {
            let actual = try result.actualTime.seconds
            let expected = try #require(frameTimes.last { $0 <= result.requestedTime.seconds + 1e-6 })
            #expect(abs(actual - expected) < 1e-6)
            served += 1
        }
        #expect(served == requests.count)
        // After 2 s frames are 0.1 s apart: a 0.03 s window can miss every frame, and then
        // the frame on screen is returned.
        #expect(frameTimes.filter { $0 > 2 }.count < frameTimes.filter { $0 <= 2 }.count)
    }

    @Test func resultsComeInRequestOrderWithPerItemFailures() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
        var generator = ImageGenerator(asset: asset)
        generator.setTolerance(MediaTime(seconds: 0.5))
        let requests: [MediaTime] = [
            MediaTime(seconds: 7), MediaTime(seconds: 1), .invalid, MediaTime(seconds: 4),
            MediaTime(seconds: 30), MediaTime(seconds: 1),
        ]
        var results: [GeneratedImage] = []
        for await result in generator.images(for: requests) { results.append(result) }
        #expect(results.map(\.requestedTime) == requests)
        #expect(throws: MediaError.self) { try results[2].image }
        #expect(throws: MediaError.self) { try results[4].actualTime }
        for index in [0, 1, 3, 5] {
            let actual = try results[index].actualTime
            #expect(abs(actual.seconds - requests[index].seconds) <= 0.5)
        }
        #expect(try results[1].image == results[5].image)
    }

    @Test func rotationIsAppliedLikeFFmpegDoes() async throws {
        let path = try await MediaFixtures.shared.rotatedPhone()
        let (image, _) = try await ImageGenerator(asset: MediaAsset(path: path)).image(at: MediaTime(seconds: 1))
        #expect(image.size == PixelSize(width: 180, height: 320))
        let reference = try ReferenceFrame.rgb(path, at: 1, size: image.size)
        #expect(ReferenceFrame.difference(image, reference) < 6)
        // Red was on top when shot; turned for display it sits on one side.
        let left = image.averageColor(x: 10, y: 140, width: 60, height: 40)
        let right = image.averageColor(x: 110, y: 140, width: 60, height: 40)
        #expect((left.red > 150) != (right.red > 150))
        var unrotated = ImageGenerator(asset: MediaAsset(path: path))
        unrotated.appliesPreferredTrackTransform = false
        #expect(try await unrotated.image(at: .zero).image.size == PixelSize(width: 320, height: 180))
    }

    @Test func maximumSizeKeepsAspectIncludingPixelAspect() async throws {
        var generator = ImageGenerator(asset: MediaAsset(path: try await MediaFixtures.shared.counter()))
        generator.maximumSize = PixelSize(width: 100, height: 100)
        #expect(try await generator.image(at: .zero).image.size == PixelSize(width: 100, height: 75))
        let wide = ImageGenerator(asset: MediaAsset(path: try await MediaFixtures.shared.anamorphic()))
        #expect(try await wide.image(at: .zero).image.size == PixelSize(width: 400, height: 200))
        var fitted = wide
        fitted.maximumSize = PixelSize(width: 200, height: 200)
        #expect(try await fitted.image(at: .zero).image.size == PixelSize(width: 200, height: 100))
    }

    @Test(arguments: ["hevc10bit", "oddSize", "videoOnly"])
    func picturesMatchFFmpegsDecode(fixture: String) async throws {
        let fixtures = MediaFixtures.shared
        let path =
            switch fixture {
            case "hevc10bit": try await fixtures.hevc10bit()
            case "oddSize": try await fixtures.oddSize()
            default: try await fixtures.videoOnly()
            }
        var generator = ImageGenerator(asset: MediaAsset(path: path))
        generator.setTolerance(.zero)
        let (image, actual) = try await generator.image(at: MediaTime(seconds: 0.5))
        #expect(abs(actual.seconds - 0.5) < 0.05)
        let reference = try ReferenceFrame.rgb(path, at: actual.seconds, size: image.size)
        #expect(ReferenceFrame.difference(image, reference) < 8, "\(fixture) picture differs from ffmpeg's")
    }

    @Test func fullSizePicturesOfAWidthOffTheSIMDBlockStayInTheirBuffer() async throws {
        // Before the fix, each picture overran its pixel buffer by 24 bytes and the heap broke.
        let path = try await MediaFixtures.shared.narrow420()
        var generator = ImageGenerator(asset: MediaAsset(path: path))
        generator.setTolerance(.zero)
        let times = (0..<25).map { MediaTime(value: Int64($0), timescale: 25) }
        var last: VideoImage?
        for await result in generator.images(for: times) {
            let image = try result.image
            #expect(image.size == PixelSize(width: 200, height: 112))
            last = image
        }
        let image = try #require(last)
        let reference = try ReferenceFrame.rgb(path, at: 24.0 / 25, size: image.size)
        #expect(ReferenceFrame.difference(image, reference) < 8)
    }

    @Test(arguments: [ImageFormat.jpeg(), .png, .webp()])
    func encodedImagesAreReadableWithTheRightSize(format: ImageFormat) async throws {
        var generator = ImageGenerator(asset: MediaAsset(path: try await MediaFixtures.shared.oddSize()))
        generator.maximumSize = PixelSize(width: 201, height: 0)
        let (image, _) = try await generator.image(at: MediaTime(seconds: 0.2))
        #expect(image.width == 201)
        let data = try await image.encoded(as: format)
        let path = MediaFixtures.shared.scratch("thumb.\(format.fileExtension)")
        try Data(data).write(to: URL(fileURLWithPath: path))
        let (width, height, codec) = try FFmpegTool.dimensions(path)
        #expect(width == image.width && height == image.height)
        let expectedCodec =
            switch format {
            case .jpeg: "mjpeg"
            case .png: "png"
            case .webp: "webp"
            }
        #expect(codec == expectedCodec)
    }

    @Test func audioOnlyMediaHasNoImages() async throws {
        let generator = ImageGenerator(asset: MediaAsset(path: try await MediaFixtures.shared.audioOnly()))
        do {
            _ = try await generator.image(at: .zero)
            Issue.record("audio-only media must not produce an image")
        } catch let error as MediaError {
            #expect(error.kind == .noVideoTrack)
            #expect(error.url.hasSuffix("audio-only.m4a"))
        }
    }

    @Test func cancellingTheIteratingTaskStopsASlowSequence() async throws {
        let path = try await MediaFixtures.shared.counter()
        let loader = SlowResourceLoader(base: try FileResourceLoader(path: path), delay: .milliseconds(250))
        var generator = ImageGenerator(asset: MediaAsset(resourceLoader: loader))
        generator.setTolerance(.zero)
        let times = (0..<40).map { MediaTime(seconds: Double($0) * 0.24) }
        let task = Task {
            var received = 0
            for await _ in generator.images(for: times) { received += 1 }
            return received
        }
        try await eventually("the sequence to read") { loader.reads >= 1 }
        let cancelled = ContinuousClock.now
        task.cancel()
        let received = await task.value
        #expect(received < times.count)
        // Uncancelled, the rest of forty images at 250 ms or more a read take at least 9.75 s; the
        // margin is for a loaded machine (3 s was once crossed with the whole suite running). Timed
        // from the cancel: a start delayed by a busy machine once took the whole to 8.1 s.
        #expect(ContinuousClock.now - cancelled < .seconds(8))
        #expect(loader.reads < 200, "reads must stop after cancellation")
    }

    @Test func aMemoryResourceLoaderGivesTheSamePicturesAsTheFile() async throws {
        let path = try await MediaFixtures.shared.counter()
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        var fromMemory = ImageGenerator(asset: MediaAsset(resourceLoader: MemoryResourceLoader(bytes: bytes)))
        var fromFile = ImageGenerator(asset: MediaAsset(path: path))
        fromMemory.setTolerance(.zero)
        fromFile.setTolerance(.zero)
        let time = MediaTime(seconds: 6.2)
        let memory = try await fromMemory.image(at: time)
        let file = try await fromFile.image(at: time)
        #expect(memory.actualTime == file.actualTime)
        #expect(memory.image == file.image)
    }
}

@Suite struct ImageGeneratorWorkTests {
    func run(_ generator: ImageGenerator, _ times: [MediaTime]) async throws -> ImageGenerationStatistics {
        let box = Mutex<ImageGenerationStatistics?>(nil)
        var generator = generator
        generator.statistics = { stats in box.withLock { $0 = stats } }
        for await result in generator.images(for: times) { _ = try result.image }
        return try #require(box.withLock { $0 })
    }

    @Test func aToleranceWithAKeyframeInsideDecodesOneFramePerImage() async throws {
        var generator = ImageGenerator(asset: MediaAsset(path: try await MediaFixtures.shared.counter()))
        generator.setTolerance(MediaTime(seconds: 1))
        // Keyframes every 2 s: each ±1 s window around 0.5, 1.5, ... 8.5 holds one.
        let times = stride(from: 0.5, through: 8.5, by: 1.0).map { MediaTime(seconds: $0) }
        let stats = try await run(generator, times)
        #expect(stats.decodedFrames <= times.count)
        #expect(stats.keyframeOnlyDecodes == stats.decodedFrames)
        // 9.5 s: the last keyframe (8 s) is outside 8.5...10.5, so frames are decoded up to 8.5 s.
        let past = try await run(generator, [MediaTime(seconds: 9.5)])
        #expect(past.keyframeOnlyDecodes == 0 && past.decodedFrames >= 15)
    }

    @Test func nearbyExactTimesReuseTheDecoderInsteadOfSeeking() async throws {
        var generator = ImageGenerator(asset: MediaAsset(path: try await MediaFixtures.shared.counter()))
        generator.setTolerance(.zero)
        // Ten times inside one GOP (2.0 ... 3.9 s): one seek, then decoding continues.
        let times = stride(from: 2.05, to: 4.0, by: 0.2).map { MediaTime(seconds: $0, preferredTimescale: 1000) }
        let stats = try await run(generator, times)
        #expect(stats.seeks == 1)
        #expect(stats.decodedFrames <= 62, "decoded \(stats.decodedFrames) frames for one GOP")
        // Shuffled requests are visited in ascending order all the same.
        let shuffled = try await run(generator, times.shuffled())
        #expect(shuffled.seeks == 1)
    }
}
