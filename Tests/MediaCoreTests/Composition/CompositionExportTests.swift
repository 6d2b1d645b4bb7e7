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

    func videoTrack(_ path: String) async throws -> AssetTrack? {
        let tracks = try await Asset(path: path).load(.tracks)
        return tracks.first { $0.mediaType == .video }
    }

    @Test func phoneVideoStaysUprightWhetherCopiedOrReencoded() async throws {
        // 320x180 stored, shown 180x320 through a 90° display matrix; red on top when shot.
        let path = try await MediaFixtures.shared.rotatedPhone()
        let asset = Asset(path: path)
        var whole = MutableComposition()
        try await whole.insertTimeRange(range(0, 2), of: asset, at: .zero)
        let copied = MediaFixtures.shared.scratch("phone-copy.mp4")
        #expect(try await CompositionExporter(composition: whole).export(to: copied).method == .streamCopy)
        var cut = MutableComposition()
        try await cut.insertTimeRange(range(0.5, 1.5), of: asset, at: .zero)
        let reencoded = MediaFixtures.shared.scratch("phone-reencode.mp4")
        #expect(try await CompositionExporter(composition: cut).export(to: reencoded).method == .reencode)

        for (out, at) in [(copied, 1.0), (reencoded, 0.5)] {
            let track = try #require(try await videoTrack(out))
            #expect(track.presentationSize == PixelSize(width: 180, height: 320), "\(out)")
            let (image, _) = try await ImageGenerator(asset: Asset(path: out)).image(at: seconds(at))
            #expect(image.size == PixelSize(width: 180, height: 320))
            // What ffmpeg shows for the source (autorotated) is what the export shows.
            let reference = try ReferenceFrame.rgb(path, at: 1, size: image.size)
            #expect(ReferenceFrame.difference(image, reference) < 8, "\(out)")
        }
        // The copy keeps the matrix; the re-encode has upright pixels and needs none.
        let copiedTrack = try #require(try await videoTrack(copied))
        #expect(copiedTrack.displayRotation == 90 && copiedTrack.naturalSize == PixelSize(width: 320, height: 180))
        let reencodedTrack = try #require(try await videoTrack(reencoded))
        #expect(reencodedTrack.displayRotation == 0 && reencodedTrack.naturalSize == PixelSize(width: 180, height: 320))
    }

    @Test func joiningDifferentRotationsIsReencoded() async throws {
        var composition = MutableComposition()
        try await composition.insertTimeRange(range(0, 2), of: Asset(path: try await MediaFixtures.shared.rotatedPhone()), at: .zero)
        try await composition.insertTimeRange(range(0, 2), of: Asset(path: try await MediaFixtures.shared.counter()), at: seconds(2))
        let plan = try await CompositionExporter(composition: composition).plan()
        #expect(plan.method == .reencode && plan.reasons.contains { $0.contains("different display rotations") })
    }

    @Test func planesTurnByQuarterTurns() {
        // 3 wide, 2 tall:  1 2 3 / 4 5 6
        let plane: [UInt8] = [1, 2, 3, 4, 5, 6]
        func turned(_ degrees: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 6)
            let width = degrees % 180 == 0 ? 3 : 2
            plane.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBufferPointer { target in
                    PlaneRotation.rotate(source.baseAddress!, stride: 3, width: 3, height: 2, into: target.baseAddress!, stride: width, clockwise: degrees)
                }
            }
            return out
        }
        #expect(turned(90) == [4, 1, 5, 2, 6, 3])   // 4 1 / 5 2 / 6 3
        #expect(turned(180) == [6, 5, 4, 3, 2, 1])
        #expect(turned(270) == [3, 6, 2, 5, 1, 4])  // 3 6 / 2 5 / 1 4
        #expect(turned(0) == plane)
    }

    @Test func exportingAnEmptyCompositionFails() async throws {
        await #expect(throws: MediaError.self) {
            _ = try await CompositionExporter(composition: MutableComposition()).export(to: MediaFixtures.shared.scratch("none.mp4"))
        }
    }
}
