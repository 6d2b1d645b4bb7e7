import Foundation
import Synchronization
import Testing
@testable import MediaCore

@Suite struct CompositionExportTests {
    func seconds(_ value: Double) -> MediaTime { MediaTime(seconds: value) }
    func range(_ start: Double, _ end: Double) -> MediaTimeRange { MediaTimeRange(start: seconds(start), end: seconds(end)) }

    func grey(_ image: VideoImage) -> Double {
        image.averageColor(x: image.width / 4, y: image.height / 4, width: image.width / 2, height: image.height / 2).green
    }

    @Test func keyframeCutsOfOneSourceAreStreamCopied() async throws {
        let asset = Asset(path: try await MediaFixtures.shared.counter())
        var composition = MutableComposition()
        try await composition.insertTimeRange(range(0, 2), of: asset, at: .zero)
        try await composition.insertTimeRange(range(6, 8), of: asset, at: seconds(2))
        let out = MediaFixtures.shared.scratch("copy.mp4")
        let steps = Mutex<[Double]>([])
        let outcome = try await CompositionExporter(composition: composition).export(to: out) { value in
            steps.withLock { $0.append(value) }
        }
        #expect(outcome.method == .streamCopy, "\(outcome.reasons)")
        let reported = steps.withLock { $0 }
        #expect(reported == reported.sorted() && reported.last == 1)

        let exported = Asset(path: out)
        let (duration, tracks) = try await exported.load(.duration, .tracks)
        #expect(abs(duration.seconds - 4) < 0.1)
        #expect(tracks.map(\.codec) == ["h264", "aac"])
        #expect(try FFmpegTool.videoFrameTimes(out).count == 120)
        var generator = ImageGenerator(asset: exported)
        generator.setTolerance(.zero)
        // Output 2.5 s is source 6.5 s: frame 195.
        let (image, _) = try await generator.image(at: seconds(2.5))
        #expect(abs(grey(image) - MediaFixtures.expectedGrey(frame: 195)) < 4)
    }

    @Test func offKeyframeCutsAndGapsAreReencoded() async throws {
        let asset = Asset(path: try await MediaFixtures.shared.counter())
        var composition = MutableComposition()
        try await composition.insertTimeRange(range(1.5, 3.5), of: asset, at: .zero)
        composition.insertEmptyTimeRange(range(1, 1.5))
        let plan = try await CompositionExporter(composition: composition).plan()
        #expect(plan.method == .reencode)
        #expect(plan.reasons.contains { $0.contains("not on a keyframe") })
        #expect(plan.reasons.contains { $0.contains("empty segments") })

        let out = MediaFixtures.shared.scratch("reencode.mp4")
        let outcome = try await CompositionExporter(composition: composition).export(to: out)
        #expect(outcome.method == .reencode)
        let exported = Asset(path: out)
        let (duration, tracks) = try await exported.load(.duration, .tracks)
        #expect(abs(duration.seconds - 2.5) < 0.1)
        let audio = try #require(tracks.first { $0.mediaType == .audio })
        #expect(audio.sampleRate == 48_000 && audio.channelCount == 2)
        #expect(abs(audio.timeRange.duration.seconds - 2.5) < 0.1)

        var generator = ImageGenerator(asset: exported)
        generator.setTolerance(.zero)
        // Output 0.3 s is source 1.8 s (frame 54); 1.2 s is the gap (black); 2.0 s is source 3.0 s (frame 90).
        let pictures = generator.images(for: [seconds(0.3), seconds(1.2), seconds(2.0)])
        var greys: [Double] = []
        for await result in pictures { greys.append(grey(try result.image)) }
        #expect(abs(greys[0] - MediaFixtures.expectedGrey(frame: 54)) < 5)
        #expect(greys[1] < 3)
        #expect(abs(greys[2] - MediaFixtures.expectedGrey(frame: 90)) < 5)
    }

    @Test func exportingAnEmptyCompositionFails() async throws {
        await #expect(throws: MediaError.self) {
            _ = try await CompositionExporter(composition: MutableComposition()).export(to: MediaFixtures.shared.scratch("none.mp4"))
        }
    }
}
