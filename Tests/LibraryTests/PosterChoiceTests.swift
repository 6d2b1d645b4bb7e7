import Foundation
import HLS
import MediaCore
import MediaTesting
import Testing

@testable import Library

@Suite("Poster choice: a representative frame, or the cover art", .serialized)
struct PosterChoiceTests {
    static func solid(_ value: UInt8, width: Int = 64, height: Int = 36) -> VideoImage {
        VideoImage(width: width, height: height, pixels: [UInt8](repeating: value, count: width * height * 3))
    }

    static func bars(width: Int = 64, height: Int = 36) -> VideoImage {
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                let band = (x * 8 / width)
                pixels += [UInt8(band * 32), UInt8(255 - band * 30), UInt8((band % 2) * 200)]
            }
        }
        return VideoImage(width: width, height: height, pixels: pixels)
    }

    @Test func blackAndFlatPicturesScoreBelowADetailedOne() {
        let black = PosterChoice.score(Self.solid(0))
        let white = PosterChoice.score(Self.solid(255))
        let grey = PosterChoice.score(Self.solid(128))
        let detailed = PosterChoice.score(Self.bars())
        #expect(black < 1 && white < 1 && grey < 1)
        #expect(detailed > 10)
        #expect(PosterChoice.best(of: [Self.solid(0), Self.solid(3), Self.bars(), Self.solid(128)]) == 2)
        #expect(PosterChoice.best(of: []) == nil)
    }

    @Test func aClipThatOpensOnBlackGetsAColourfulPoster() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        // 4 s of black, then 6 s of colour bars: the first frame and a third of the way in are black.
        let clip = try await FFmpegCommand.run(
            [
                "-f", "lavfi", "-i", "color=c=black:s=320x180:r=25:d=4", "-f", "lavfi", "-i", "smptebars=s=320x180:r=25:d=6",
                "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0[v]", "-map", "[v]", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            ], output: temp.root.appendingPathComponent("black-opening.mp4"))
        let poster = try await Self.packagedPoster(of: clip, in: temp)
        let colour = poster.averageColor(x: 0, y: 0, width: poster.width, height: poster.height)
        #expect(colour.red + colour.green + colour.blue > 150, "poster is black: \(colour)")
    }

    @Test func aVideoWithCoverArtGetsTheCoverAsItsPoster() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await FFmpegCommand.run(
            ["-f", "lavfi", "-i", "smptebars=s=320x180:r=25:d=3", "-c:v", "libx264", "-pix_fmt", "yuv420p"],
            output: temp.root.appendingPathComponent("plain.mp4"))
        // A pure red cover (PNG): nothing like the bars.
        let cover = try await FFmpegCommand.run(
            ["-f", "lavfi", "-i", "color=c=red:s=200x300", "-frames:v", "1"], output: temp.root.appendingPathComponent("cover.png"))
        let withCover = try await FFmpegCommand.run(
            ["-i", clip.path, "-i", cover.path, "-map", "0", "-map", "1", "-c", "copy", "-disposition:v:1", "attached_pic"],
            output: temp.root.appendingPathComponent("with-cover.mp4"))
        let poster = try await Self.packagedPoster(of: withCover, in: temp)
        #expect(poster.width == 200 && poster.height == 300)
        let colour = poster.averageColor(x: 0, y: 0, width: poster.width, height: poster.height)
        #expect(colour.red > 200 && colour.green < 60 && colour.blue < 60, "poster is not the red cover: \(colour)")
    }

    /// Packages `clip` and decodes the bundle's `poster.jpg`.
    static func packagedPoster(of clip: URL, in temp: TemporaryLibrary) async throws -> VideoImage {
        let packager = BundlePackager()
        let bundle = temp.root.appendingPathComponent("bundle-\(clip.deletingPathExtension().lastPathComponent)")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let packaged = try await packager.package(clip, probe: try await packager.probe(clip), into: bundle) { _ in }
        #expect(packaged.poster == BundleLayout.poster)
        let generator = ImageGenerator(asset: MediaAsset(url: bundle.appendingPathComponent(BundleLayout.poster)))
        return try await generator.image(at: .zero).image
    }
}
