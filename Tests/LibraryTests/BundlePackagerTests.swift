import Foundation
import HLS
import MediaCore
import MediaTesting
import Testing

@testable import Library

@Suite("MediaCore packager", .serialized)
struct BundlePackagerTests {
    @Test func probeReadsDurationSizeTracksAndMetadata() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let probe = try await BundlePackager().probe(try await temp.makeClip())
        #expect(abs(probe.duration - 3) < 0.2)
        #expect(probe.width == 320 && probe.height == 180)
        #expect(probe.title == "Embedded Title")
        #expect(probe.subtitle == "Marquee Tests")
        #expect(probe.summary == "An embedded description")
        #expect(probe.audioTracks == [MediaProbe.Track(language: "en", title: nil), MediaProbe.Track(language: "fr", title: nil)])
        #expect(probe.subtitleTracks == [MediaProbe.Track(language: "en", title: nil)])
    }

    @Test func probeGivesTheSizeAViewerSees() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let anamorphic = try await temp.makeClip(named: "anamorphic.mp4", seconds: 1, size: "160x180", videoArguments: ["-vf", "setsar=2"])
        let wide = try await BundlePackager().probe(anamorphic)
        #expect(wide.width == 320 && wide.height == 180)
        // A phone-style clip: landscape pixels with a display matrix turning them a quarter.
        let rotated = try await temp.makeClip(named: "rotated.mp4", seconds: 1)
        try DisplayRotation.quarterTurnClockwise(rotated, codedHeight: 180)
        let portrait = try await BundlePackager().probe(rotated)
        #expect(portrait.width == 180 && portrait.height == 320)
    }

    @Test func languagesBecomeTwoLetterTagsAndOwnNames() {
        #expect(LanguageTag.twoLetter("eng") == "en")
        #expect(LanguageTag.twoLetter("fre") == "fr")
        #expect(LanguageTag.twoLetter("GER") == "de")
        #expect(LanguageTag.twoLetter("swe") == "sv")
        #expect(LanguageTag.twoLetter("gsw") == "gsw")
        #expect(LanguageTag.twoLetter("und") == nil)
        #expect(LanguageTag.twoLetter("") == nil)
        #expect(LanguageTag.name(of: "en") == "English")
        #expect(LanguageTag.name(of: "fr") == "Français")
        #expect(LanguageTag.name(of: "ja") == "日本語")
        #expect(LanguageTag.name(of: nil) == nil)
    }

    @Test func packagesAPlayableBundle() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await temp.makeClip(seconds: 3)
        let packager = BundlePackager()
        let probe = try await packager.probe(clip)
        let bundle = temp.root.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let fractions = Fractions()
        let packaged = try await packager.package(clip, probe: probe, into: bundle) { await fractions.append($0.fraction) }
        #expect(packaged == PackagedBundle(multivariantPlaylist: "master.m3u8", poster: "poster.jpg", trickPlay: "trickplay.json", duration: packaged.duration))
        #expect(abs((packaged.duration ?? 0) - probe.duration) < 0.2, "the bundle plays as long as the file")
        let reported = await fractions.values
        #expect(reported.last == 1)
        #expect(reported == reported.sorted() && reported.allSatisfy { (0...1).contains($0) })

        // The multivariant playlist parses strictly and offers what the player shows.
        let master = try Self.strictPlaylist(bundle, "master.m3u8").multivariant
        let playlist = try #require(master)
        let variant = try #require(playlist.variants.first)
        #expect(playlist.variants.count == 1)
        #expect(variant.attributes.resolution == Resolution(width: 320, height: 180))
        #expect(variant.attributes.codecs.contains { $0.hasPrefix("avc1.") })
        #expect(variant.attributes.codecs.contains("mp4a.40.2"))
        let audio = playlist.renditions.filter { $0.type == .audio }
        #expect(audio.map(\.name) == ["English", "Français"])
        #expect(audio.map(\.language) == ["en", "fr"])
        #expect(audio.map(\.isDefault) == [true, false])
        #expect(audio.allSatisfy { $0.groupID == variant.audio })
        let subtitles = playlist.renditions.filter { $0.type == .subtitles }
        #expect(subtitles.map(\.name) == ["English"])
        #expect(subtitles.map(\.language) == ["en"])
        #expect(subtitles.allSatisfy { $0.groupID == variant.subtitles })
        #expect(playlist.iFrameVariants.count == 1)
        #expect(playlist.imageVariants.count == 1)

        // Every media playlist parses strictly, and every file it names is there.
        let mediaURIs =
            playlist.variants.map(\.uri) + playlist.renditions.compactMap(\.uri)
            + playlist.iFrameVariants.map(\.uri) + playlist.imageVariants.map(\.uri)
        for uri in mediaURIs {
            let media = try #require(try Self.strictPlaylist(bundle, uri).media, "\(uri)")
            #expect(abs(media.duration - probe.duration) < 0.2, "\(uri)")
            let folder = bundle.appendingPathComponent(uri).deletingLastPathComponent()
            for file in Set(media.segments.map(\.uri) + media.segments.compactMap(\.map?.uri)) {
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(uri): \(file)")
            }
        }
        let vttURI = try #require(subtitles.first?.uri)
        let vttFile = try #require(try Self.strictPlaylist(bundle, vttURI).media?.segments.first?.uri)
        let vtt = try String(contentsOf: bundle.appendingPathComponent(vttURI).deletingLastPathComponent().appendingPathComponent(vttFile), encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT") && vtt.contains("Hello"))

        // The poster is a JPEG at the video's size (it is narrower than 1280).
        #expect(try await Self.jpegSize(bundle.appendingPathComponent("poster.jpg")) == PixelSize(width: 320, height: 180))

        // trickplay.json describes trickplay.jpg: a tile every interval, covering the clip.
        let trick = try JSONDecoder().decode(TrickPlayImages.self, from: Data(contentsOf: bundle.appendingPathComponent("trickplay.json")))
        #expect(trick.image == "trickplay.jpg")
        #expect(trick.interval == 1 && trick.count == 3 && trick.columns == 3 && trick.rows == 1)
        #expect(trick.tileWidth == 160 && trick.tileHeight == 90)
        #expect(Double(trick.count) * trick.interval >= probe.duration - 0.05)
        #expect(Double(trick.count - 1) * trick.interval < probe.duration)
        #expect(trick.columns * trick.rows >= trick.count && trick.columns * (trick.rows - 1) < trick.count)
        #expect(
            try await Self.jpegSize(bundle.appendingPathComponent(trick.image))
                == PixelSize(width: trick.columns * trick.tileWidth, height: trick.rows * trick.tileHeight))
    }

    @Test func largeSourcesGetA720And360Ladder() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await temp.makeClip(named: "hd.mp4", seconds: 2, size: "1280x720")
        let packager = BundlePackager()
        let bundle = temp.root.appendingPathComponent("hd")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        _ = try await packager.package(clip, probe: try await packager.probe(clip), into: bundle) { _ in }
        let playlist = try #require(try Self.strictPlaylist(bundle, "master.m3u8").multivariant)
        #expect(playlist.variants.compactMap(\.attributes.resolution) == [Resolution(width: 1280, height: 720), Resolution(width: 640, height: 360)])
        #expect(try await Self.jpegSize(bundle.appendingPathComponent("poster.jpg")) == PixelSize(width: 1280, height: 720))
    }

    @Test func portraitVideoGetsPortraitPosterAndTiles() async throws {
        // 360 wide: not a multiple of 16, the width that used to overrun the poster's buffer.
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await temp.makeClip(named: "portrait.mp4", seconds: 2, size: "360x640")
        let packager = BundlePackager()
        let bundle = temp.root.appendingPathComponent("portrait")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        _ = try await packager.package(clip, probe: try await packager.probe(clip), into: bundle) { _ in }
        let playlist = try #require(try Self.strictPlaylist(bundle, "master.m3u8").multivariant)
        #expect(playlist.variants.compactMap(\.attributes.resolution) == [Resolution(width: 360, height: 640)])
        #expect(try await Self.jpegSize(bundle.appendingPathComponent("poster.jpg")) == PixelSize(width: 360, height: 640))
        let trick = try JSONDecoder().decode(TrickPlayImages.self, from: Data(contentsOf: bundle.appendingPathComponent("trickplay.json")))
        #expect(trick.tileWidth == 90 && trick.tileHeight == 160 && trick.count == 2)
    }

    @Test func anamorphicVideoIsEncodedWithSquarePixels() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await temp.makeClip(named: "anamorphic.mp4", seconds: 1, size: "160x180", videoArguments: ["-vf", "setsar=2"])
        let packager = BundlePackager()
        let bundle = temp.root.appendingPathComponent("anamorphic")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        _ = try await packager.package(clip, probe: try await packager.probe(clip), into: bundle) { _ in }
        let playlist = try #require(try Self.strictPlaylist(bundle, "master.m3u8").multivariant)
        #expect(playlist.variants.compactMap(\.attributes.resolution) == [Resolution(width: 320, height: 180)])
        let trick = try JSONDecoder().decode(TrickPlayImages.self, from: Data(contentsOf: bundle.appendingPathComponent("trickplay.json")))
        #expect(trick.tileWidth == 160 && trick.tileHeight == 90)
    }

    @Test func corruptFilesFailWithFFmpegsMessage() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let garbage = temp.root.appendingPathComponent("garbage.mp4")
        try Data("this is not a video".utf8).write(to: garbage)
        await Self.expectMediaFailure(reading: garbage)

        // A file cut short before its index (MP4 writes `moov` last).
        let clip = try await temp.makeClip(seconds: 2)
        let truncated = temp.root.appendingPathComponent("truncated.mp4")
        let bytes = try Data(contentsOf: clip)
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        await Self.expectMediaFailure(reading: truncated)

        // Media with neither audio nor video is not something the library can play.
        let subtitlesOnly = temp.root.appendingPathComponent("subtitles.srt")
        try "1\n00:00:00,000 --> 00:00:02,000\nHello\n\n".write(to: subtitlesOnly, atomically: true, encoding: .utf8)
        await #expect(throws: LibraryError.unsupportedSource(subtitlesOnly.path)) {
            try await BundlePackager().probe(subtitlesOnly)
        }
    }

    @Test func cancellingStopsPackaging() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await temp.makeClip(named: "long.mp4", seconds: 20, size: "1280x720")
        let packager = BundlePackager()
        let probe = try await packager.probe(clip)
        let bundle = temp.root.appendingPathComponent("cancelled")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let reported = Fractions()
        let job = Task { try await packager.package(clip, probe: probe, into: bundle) { await reported.append($0.fraction) } }
        try await eventually("packaging to report progress") { await !reported.values.isEmpty }
        let cancelled = ContinuousClock.now
        job.cancel()
        await #expect(throws: CancellationError.self) { try await job.value }
        #expect(ContinuousClock.now - cancelled < .seconds(2))
        #expect(!FileManager.default.fileExists(atPath: bundle.appendingPathComponent("trickplay.json").path))
    }

    // MARK: Helpers

    static func expectMediaFailure(reading url: URL, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            _ = try await BundlePackager().probe(url)
            Issue.record("\(url.lastPathComponent) was probed", sourceLocation: sourceLocation)
        } catch let LibraryError.mediaFailed(step, path, cause) {
            #expect(step == "read" && path == url.path, sourceLocation: sourceLocation)
            #expect(!cause.message.isEmpty && cause.url == url.path, sourceLocation: sourceLocation)
            #expect(cause.code != nil, "FFmpeg's error code is kept", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    static func strictPlaylist(_ bundle: URL, _ relative: String) throws -> Playlist {
        try Playlist(parsing: String(contentsOf: bundle.appendingPathComponent(relative), encoding: .utf8), options: .strict)
    }

    /// Opens a JPEG with FFmpeg and answers its picture size (a JPEG that does not decode fails).
    static func jpegSize(_ url: URL) async throws -> PixelSize? {
        let tracks = try await MediaAsset(url: url).load(.tracks)
        let video = try #require(tracks.first { $0.mediaType == .video })
        #expect(video.codec == "mjpeg")
        return video.naturalSize
    }
}

/// Progress fractions in the order they arrived.
actor Fractions {
    private(set) var values: [Double] = []
    func append(_ value: Double) { values.append(value) }
}
