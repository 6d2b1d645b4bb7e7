import Foundation
import HLS
import Testing

@testable import MediaCore

/// A phone's portrait video packaged the way the library packages it (a ladder by the short
/// side): the encode must not corrupt memory, every rung stays portrait, the I-frame playlist
/// ends where the video ends, and BANDWIDTH covers the largest alternate audio and subtitles.
@Suite struct PortraitPackagingTests {
    func parse(_ path: String) throws -> Playlist {
        let result = PlaylistParser.parse(try String(contentsOfFile: path, encoding: .utf8), options: .strict)
        #expect(result.errors.isEmpty, "\(path): \(result.errors)")
        return try #require(result.playlist)
    }

    @Test func aPortraitLadderIsEncodedUprightAndItsIFramesEndWithTheVideo() async throws {
        let source = try await MediaFixtures.shared.portrait()
        let out = MediaFixtures.shared.scratch("package-portrait")
        // The library's ladder for a 720×1280 picture: 720p and 360p by the short side.
        var options = PackagingOptions(ladder: [1280, 640])
        options.segmentDuration = 2
        options.makesImagePlaylist = false
        let result = try await HLSPackager(asset: MediaAsset(path: source), options: options).package(to: out)
        let master = try #require(try parse(result.multivariantPath).multivariant)
        #expect(master.variants.map { $0.attributes.resolution } == [Resolution(width: 720, height: 1280), Resolution(width: 360, height: 640)])
        for variant in master.variants {
            let media = try #require(try parse((out as NSString).appendingPathComponent(variant.uri)).media)
            #expect(abs(media.duration - 15) < 0.2, "\(variant.uri): \(media.duration) s")
            let (width, height, _) = try FFmpegTool.dimensions((out as NSString).appendingPathComponent(variant.uri))
            #expect(Resolution(width: width, height: height) == variant.attributes.resolution)
        }
        let iFrames = try #require(try parse((out as NSString).appendingPathComponent(master.iFrameVariants[0].uri)).media)
        let top = try #require(try parse((out as NSString).appendingPathComponent(master.variants[0].uri)).media)
        #expect(abs(iFrames.duration - top.duration) < 0.1, "I-frames last \(iFrames.duration) s, the video \(top.duration) s")
        // Each I-frame lasts until the next keyframe: at most a GOP (2 s) and a frame.
        #expect(iFrames.segments.allSatisfy { $0.duration <= 2.1 }, "\(iFrames.segments.map(\.duration))")
    }

    @Test func bandwidthCoversTheLargestAudioAndTheSubtitles() async throws {
        let source = try await MediaFixtures.shared.multiLanguage()
        let out = MediaFixtures.shared.scratch("package-bandwidth")
        var options = PackagingOptions()
        options.segmentDuration = 2
        options.makesImagePlaylist = false
        options.makesIFramePlaylist = false
        let result = try await HLSPackager(asset: MediaAsset(path: source), options: options).package(to: out)
        let master = try #require(try parse(result.multivariantPath).multivariant)
        func peak(_ relative: String) throws -> Int {
            try RenditionMeasurement(playlistPath: (out as NSString).appendingPathComponent(relative)).peakBitRate
        }
        func average(_ relative: String) throws -> Int {
            try RenditionMeasurement(playlistPath: (out as NSString).appendingPathComponent(relative)).averageBitRate
        }
        let audio = master.renditions.filter { $0.type == .audio }.compactMap(\.uri)
        let subtitles = master.renditions.filter { $0.type == .subtitles }.compactMap(\.uri)
        #expect(audio.count == 2 && subtitles.count == 2)
        // The French 5.1 track is larger than the default English stereo one.
        #expect(try peak(audio[1]) > peak(audio[0]))
        let variant = try #require(master.variants.first)
        let needed = try peak(variant.uri) + audio.map(peak).max()! + subtitles.map(peak).max()!
        #expect(try #require(variant.attributes.bandwidth) >= needed)
        let averageNeeded = try average(variant.uri) + audio.map(average).max()! + subtitles.map(average).max()!
        #expect(try #require(variant.attributes.averageBandwidth) >= averageNeeded)
    }
}
