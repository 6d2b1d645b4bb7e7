import Foundation
import Testing

@testable import MediaCore

@Suite struct MutableCompositionTests {
    func seconds(_ value: Double) -> MediaTime { MediaTime(seconds: value) }
    func range(_ start: Double, _ end: Double) -> MediaTimeRange { MediaTimeRange(start: seconds(start), end: seconds(end)) }

    func targets(_ track: CompositionTrack) -> [String] {
        track.segments.map { ($0.isEmpty ? "empty " : "") + "\($0.targetRange.start.seconds)-\($0.targetRange.end.seconds)" }
    }

    @Test func insertingLoadsTheSourceAndSegmentsAreInspectable() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
        guard case .notYetLoaded = asset.status(of: .tracks) else {
            Issue.record("fresh asset")
            return
        }
        var composition = MutableComposition()
        try await composition.insertTimeRange(range(0, 2), of: asset, at: .zero)
        guard case .loaded = asset.status(of: .tracks) else {
            Issue.record("insert must load the tracks")
            return
        }
        try await composition.insertTimeRange(range(4, 6), of: asset, at: seconds(2))
        #expect(composition.tracks.map(\.mediaType) == [.video, .audio])
        #expect(composition.duration == seconds(4))
        let video = composition.tracks[0]
        #expect(targets(video) == ["0.0-2.0", "2.0-4.0"])
        #expect(video.segments.map(\.sourceRange.start.seconds) == [0, 4])

        // Inserting in the middle splits a segment and pushes the rest back.
        try await composition.insertTimeRange(range(8, 9), of: asset, at: seconds(1))
        #expect(targets(composition.tracks[0]) == ["0.0-1.0", "1.0-2.0", "2.0-3.0", "3.0-5.0"])
        #expect(composition.tracks[0].segments.map(\.sourceRange.start.seconds) == [0, 8, 1, 4])
        #expect(targets(composition.tracks[1]) == targets(composition.tracks[0]))

        composition.insertEmptyTimeRange(range(5, 5.5))
        #expect(targets(composition.tracks[0]).last == "empty 5.0-5.5")
        composition.removeTimeRange(range(1, 2))
        #expect(targets(composition.tracks[0]) == ["0.0-1.0", "1.0-2.0", "2.0-4.0"])
        #expect(composition.tracks[0].segments.map(\.sourceRange.start.seconds) == [0, 1, 4])
        #expect(composition.duration == seconds(4))
    }

    @Test func removingAcrossSegmentsCutsBothEnds() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
        var composition = MutableComposition()
        try await composition.insertTimeRange(range(0, 3), of: asset, at: .zero)
        try await composition.insertTimeRange(range(5, 8), of: asset, at: seconds(3))
        composition.removeTimeRange(range(2, 4))
        #expect(targets(composition.tracks[0]) == ["0.0-2.0", "2.0-4.0"])
        #expect(composition.tracks[0].segments.map(\.sourceRange.start.seconds) == [0, 6])
    }

    @Test func insertingARangeOutsideTheSourceFails() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
        var composition = MutableComposition()
        await #expect(throws: MediaError.self) {
            try await composition.insertTimeRange(range(9, 15), of: asset, at: .zero)
        }
        #expect(composition.tracks.isEmpty)
    }

    @Test func videoCompositionPropertiesAndValidity() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
        var composition = MutableComposition()
        try await composition.insertTimeRange(range(0, 2), of: asset, at: .zero)
        try await composition.insertTimeRange(range(4, 6), of: asset, at: seconds(2))
        let videoComposition = try await VideoComposition(propertiesOf: composition)
        #expect(videoComposition.renderSize == PixelSize(width: 320, height: 240))
        #expect(videoComposition.frameDuration == MediaTime(value: 1, timescale: 30))
        #expect(videoComposition.instructions.count == 1)  // one track shown throughout: one instruction
        #expect(await videoComposition.isValid(for: composition, timeRange: range(0, 4)).isValid)

        let tooLong = await videoComposition.isValid(for: composition, timeRange: range(0, 5))
        #expect(!tooLong.isValid)
        #expect(tooLong.problems.contains { $0.contains("after the composition") })

        var gappy = videoComposition
        gappy.instructions.removeFirst()
        gappy.renderSize = PixelSize(width: 0, height: 240)
        let validation = await gappy.isValid(for: composition, timeRange: range(0, 4))
        #expect(validation.problems.contains { $0.contains("no instruction covers") })
        #expect(validation.problems.contains { $0.contains("render size") })

        var wrongTrack = videoComposition
        wrongTrack.instructions[0].trackID = composition.tracks[1].id
        #expect(await wrongTrack.isValid(for: composition, timeRange: range(0, 4)).problems.contains { $0.contains("not a video track") })
    }
}
