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
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
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

        let exported = MediaAsset(path: out)
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
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
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
        let exported = MediaAsset(path: out)
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

    func firstTrack(_ asset: MediaAsset, _ type: AssetTrack.MediaType) async throws -> AssetTrack? {
        let tracks = try await asset.load(.tracks)
        return tracks.first { $0.mediaType == type }
    }

    func videoTrack(_ path: String) async throws -> AssetTrack? {
        let tracks = try await MediaAsset(path: path).load(.tracks)
        return tracks.first { $0.mediaType == .video }
    }

    @Test func phoneVideoStaysUprightWhetherCopiedOrReencoded() async throws {
        // 320x180 stored, shown 180x320 through a 90° display matrix; red on top when shot.
        let path = try await MediaFixtures.shared.rotatedPhone()
        let asset = MediaAsset(path: path)
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
            let (image, _) = try await ImageGenerator(asset: MediaAsset(path: out)).image(at: seconds(at))
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
        try await composition.insertTimeRange(range(0, 2), of: MediaAsset(path: try await MediaFixtures.shared.rotatedPhone()), at: .zero)
        try await composition.insertTimeRange(range(0, 2), of: MediaAsset(path: try await MediaFixtures.shared.counter()), at: seconds(2))
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
        #expect(turned(90) == [4, 1, 5, 2, 6, 3])  // 4 1 / 5 2 / 6 3
        #expect(turned(180) == [6, 5, 4, 3, 2, 1])
        #expect(turned(270) == [3, 6, 2, 5, 1, 4])  // 3 6 / 2 5 / 1 4
        #expect(turned(0) == plane)
    }

    /// The amplitude of the `hertz` component of `path`'s audio (mono, 48 kHz) over
    /// `duration` seconds from `start`, by Goertzel's algorithm.
    func tone(_ path: String, at start: Double, for duration: Double, hertz: Double) throws -> Double {
        let data = try FFmpegTool.run(
            "ffmpeg",
            [
                "-v", "error", "-ss", String(start), "-t", String(duration), "-i", path,
                "-vn", "-ac", "1", "-ar", "48000", "-f", "f32le", "-",
            ])
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let coefficient = 2 * cos(2 * Double.pi * hertz / 48_000)
        var s1 = 0.0
        var s2 = 0.0
        for sample in samples {
            let s0 = Double(sample) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return 2 * sqrt(max(0, power)) / Double(max(1, samples.count))
    }

    @Test func aSecondAudioTrackIsMixedIn() async throws {
        // The counter clip carries a 440 Hz tone; "music" at 1 kHz goes on a track of its own
        // from 1 s to 3 s, while the first tracks run 0–4 s.
        let counter = MediaAsset(path: try await MediaFixtures.shared.counter())
        let musicFile = MediaFixtures.shared.scratch("music-1k.m4a")
        try await FFmpegTool.ffmpegOffPool(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=3", "-c:a", "aac", musicFile])
        let music = MediaAsset(path: musicFile)
        let musicTrack = try #require(try await firstTrack(music, .audio))
        var composition = MutableComposition()
        try await composition.insertTimeRange(range(0, 4), of: counter, at: .zero)
        let bed = try composition.addMutableTrack(withMediaType: .audio)
        try await composition.insertTimeRange(range(0, 2), of: musicTrack, in: music, at: seconds(1), intoTrack: bed)
        #expect(composition.tracks.map(\.mediaType) == [.video, .audio, .audio])
        #expect(composition.duration == seconds(4))
        await #expect(throws: MediaError.self) {
            var copy = composition
            try await copy.insertTimeRange(range(0, 1), of: musicTrack, in: music, at: .zero, intoTrack: composition.tracks[0].id)
        }

        let out = MediaFixtures.shared.scratch("mixed.mp4")
        #expect(try await CompositionExporter(composition: composition).export(to: out).method == .reencode)
        let tracks = try await MediaAsset(path: out).load(.tracks)
        #expect(tracks.filter { $0.mediaType == .audio }.count == 1)
        #expect(try tone(out, at: 0.2, for: 0.6, hertz: 1000) < 0.01)
        #expect(try tone(out, at: 1.5, for: 1, hertz: 1000) > 0.05)
        #expect(try tone(out, at: 1.5, for: 1, hertz: 440) > 0.05)
        #expect(try tone(out, at: 3.3, for: 0.5, hertz: 1000) < 0.01)
        #expect(try tone(out, at: 3.3, for: 0.5, hertz: 440) > 0.05)
    }

    @Test func anAudioMixSetsVolumesAndRamps() async throws {
        // The counter's 440 Hz tone fades out over 2–4 s; 1 kHz music from 1 s at a quarter volume.
        let counter = MediaAsset(path: try await MediaFixtures.shared.counter())
        let musicFile = MediaFixtures.shared.scratch("music-1k-mix.m4a")
        try await FFmpegTool.ffmpegOffPool(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=3", "-c:a", "aac", musicFile])
        let music = MediaAsset(path: musicFile)
        var composition = MutableComposition()
        try await composition.insertTimeRange(range(0, 4), of: counter, at: .zero)
        let bed = try composition.addMutableTrack(withMediaType: .audio)
        try await composition.insertTimeRange(range(0, 3), of: try #require(try await firstTrack(music, .audio)), in: music, at: seconds(1), intoTrack: bed)
        let voice = try #require(composition.tracks.first { $0.mediaType == .audio }?.id)
        var voiceVolume = AudioMix.InputParameters(trackID: voice)
        voiceVolume.setVolumeRamp(from: 1, to: 0, timeRange: range(2, 4))
        var exporter = CompositionExporter(composition: composition)
        exporter.audioMix = AudioMix(inputParameters: [voiceVolume, AudioMix.InputParameters(trackID: bed, volume: 0.25)])
        #expect(try await exporter.plan().reasons.contains("the audio mix changes track volumes"))
        let out = MediaFixtures.shared.scratch("audio-mix.mp4")
        _ = try await exporter.export(to: out)

        let fullTone = try tone(out, at: 0.2, for: 0.6, hertz: 440)
        #expect(fullTone > 0.08)
        #expect(try tone(out, at: 2.9, for: 0.2, hertz: 440) < fullTone * 0.65)  // halfway down the ramp
        #expect(try tone(out, at: 3.8, for: 0.15, hertz: 440) < fullTone * 0.15)  // nearly silent at the end
        let quiet = try tone(out, at: 1.5, for: 1, hertz: 1000)
        #expect(quiet > fullTone * 0.15 && quiet < fullTone * 0.35, "music at \(quiet), tone at \(fullTone)")
        #expect(AudioMix.InputParameters(trackID: 1, volume: 0.5).volume(at: 10) == 0.5)
        #expect(voiceVolume.volume(at: 1) == 1 && voiceVolume.volume(at: 3) == 0.5 && voiceVolume.volume(at: 5) == 0)
    }

    @Test func anEarlierVideoTrackIsShownWhereverItHasMedia() async throws {
        // Track 1: the grey counter from 1 s to 2 s only; track 2: a colourful test pattern
        // throughout. The picture is the counter in [1, 2), the pattern elsewhere.
        let counter = MediaAsset(path: try await MediaFixtures.shared.counter())
        let counterVideo = try #require(try await firstTrack(counter, .video))
        let phone = MediaAsset(path: try await MediaFixtures.shared.videoOnly())
        let phoneVideo = try #require(try await firstTrack(phone, .video))
        var composition = MutableComposition()
        let top = try composition.addMutableTrack(withMediaType: .video)
        let below = try composition.addMutableTrack(withMediaType: .video)
        try await composition.insertTimeRange(range(3, 4), of: counterVideo, in: counter, at: seconds(1), intoTrack: top)
        try await composition.insertTimeRange(range(0, 2), of: phoneVideo, in: phone, at: .zero, intoTrack: below)
        let videoComposition = try await VideoComposition(propertiesOf: composition)
        #expect(videoComposition.instructions.map(\.trackID) == [below, top])
        #expect(videoComposition.instructions.map(\.timeRange.start.seconds) == [0, 1])
        #expect(await videoComposition.isValid(for: composition, timeRange: range(0, 2)).isValid)

        let out = MediaFixtures.shared.scratch("layered.mp4")
        _ = try await CompositionExporter(composition: composition).export(to: out)
        var generator = ImageGenerator(asset: MediaAsset(path: out))
        generator.setTolerance(.zero)
        // Inside [1, 2): the counter's flat grey (source 3.5 s = frame 105), letterboxed in the middle.
        let (inside, _) = try await generator.image(at: seconds(1.5))
        let centre = inside.averageColor(x: inside.width / 2 - 10, y: inside.height / 2 - 10, width: 20, height: 20)
        #expect(abs(centre.green - MediaFixtures.expectedGrey(frame: 105)) < 6 && abs(centre.red - centre.blue) < 6)
        // Outside: testsrc2's colourful picture, not a flat grey.
        let (outside, _) = try await generator.image(at: seconds(0.5))
        let patch = outside.averageColor(x: 0, y: outside.height / 2, width: outside.width / 3, height: 10)
        #expect(abs(patch.red - patch.blue) > 20 || abs(patch.green - patch.blue) > 20)
    }

    @Test func exportingAnEmptyCompositionFails() async throws {
        await #expect(throws: MediaError.self) {
            _ = try await CompositionExporter(composition: MutableComposition()).export(to: MediaFixtures.shared.scratch("none.mp4"))
        }
    }
}
