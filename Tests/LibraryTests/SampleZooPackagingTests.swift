import Foundation
import HLS
import MediaTesting
import Testing

@testable import Library

/// The library's packager, in this process (so `make sanitize` watches every pointer), on
/// pictures of the shapes phones and cameras make: portrait, turned by a display matrix,
/// non-square pixels, odd sizes, 4:2:2 and 10-bit. Each must package without corrupting
/// memory, upright, every rung keeping the picture's shape.
@Suite("Packaging the shapes people record", .serialized)
struct SampleZooPackagingTests {
    struct Shape: Sendable, CustomTestStringConvertible {
        var name: String
        var size: String
        var extra: [String] = []
        var rotate: Bool = false
        /// The picture as shown: upright, square pixels.
        var shown: (Int, Int)
        var testDescription: String { name }
    }

    static let shapes: [Shape] = [
        Shape(name: "portrait-720x1280", size: "720x1280", shown: (720, 1280)),
        Shape(name: "portrait-1080x1920", size: "1080x1920", shown: (1080, 1920)),
        Shape(name: "landscape-1280x720", size: "1280x720", shown: (1280, 720)),
        Shape(name: "phone-turned", size: "1280x720", rotate: true, shown: (720, 1280)),
        Shape(name: "anamorphic", size: "720x576", extra: ["-vf", "setsar=16/15"], shown: (768, 576)),
        Shape(name: "odd-853x479", size: "853x479", extra: ["-pix_fmt", "yuv444p"], shown: (853, 479)),
        Shape(name: "high10", size: "640x360", extra: ["-pix_fmt", "yuv420p10le"], shown: (640, 360)),
        Shape(name: "yuv422", size: "640x360", extra: ["-pix_fmt", "yuv422p"], shown: (640, 360)),
    ]

    @Test(arguments: shapes)
    func packagesUprightWithoutCorruptingMemory(shape: Shape) async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let source = temp.root.appendingPathComponent("\(shape.name).mp4")
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run(
            [
                "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                "-f", "lavfi", "-i", "testsrc=size=\(shape.size):rate=30:duration=3",
                "-f", "lavfi", "-i", "sine=frequency=550:duration=3",
                "-c:v", "libx264", "-preset", "ultrafast",
            ] + shape.extra + ["-c:a", "aac", source.path])
        if shape.rotate {
            try DisplayRotation.quarterTurnClockwise(source, codedHeight: 720)
        }
        let packager = BundlePackager()
        let probe = try await packager.probe(source)
        #expect(probe.width == shape.shown.0 && probe.height == shape.shown.1, "probe: \(probe.width ?? 0)x\(probe.height ?? 0)")
        let bundle = temp.root.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        _ = try await packager.package(source, probe: probe, into: bundle) { _ in }
        let text = try String(contentsOf: bundle.appendingPathComponent(BundleLayout.multivariantPlaylist), encoding: .utf8)
        let master = try #require(PlaylistParser.parse(text, options: .strict).playlist?.multivariant)
        #expect(!master.variants.isEmpty)
        let aspect = Double(shape.shown.0) / Double(shape.shown.1)
        for variant in master.variants {
            let resolution = try #require(variant.attributes.resolution)
            #expect(abs(Double(resolution.width) / Double(resolution.height) - aspect) < 0.02, "\(variant.uri): \(resolution)")
            let media = PlaylistParser.parse(
                try String(contentsOf: bundle.appendingPathComponent(variant.uri), encoding: .utf8), options: .strict)
            #expect(media.errors.isEmpty)
            #expect(abs((media.playlist?.media?.duration ?? 0) - 3) < 0.2)
        }
    }
}
