import Foundation
import HLS
import Synchronization
import Testing

@testable import MediaCore

@Suite struct HLSPackagerTests {
    /// Every playlist the package links to, parsed strictly.
    func strictlyParse(_ path: String) throws -> Playlist {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let result = PlaylistParser.parse(text, options: .strict)
        #expect(result.errors.isEmpty, "\(path): \(result.errors)")
        return try #require(result.playlist)
    }

    @Test func copiedPackageIsStrictValidAndPlaysWithFFprobe() async throws {
        let source = try await MediaFixtures.shared.multiLanguage()
        let out = MediaFixtures.shared.scratch("package-copy")
        var options = PackagingOptions()
        options.segmentDuration = 2
        options.thumbnailInterval = 1
        let result = try await HLSPackager(asset: MediaAsset(path: source), options: options).package(to: out)
        #expect(result.renditions.filter { $0.kind == .video }.map(\.method) == [.copied])
        #expect(result.renditions.filter { $0.kind == .audio }.count == 2)

        let master = try #require(try strictlyParse(result.multivariantPath).multivariant)
        let audio = master.renditions.filter { $0.type == .audio }
        #expect(audio.map(\.language) == ["eng", "fra"])
        #expect(audio.map { $0.channels?.count } == [2, 6])
        #expect(audio.first?.isDefault == true)
        let subtitles = master.renditions.filter { $0.type == .subtitles }
        #expect(subtitles.map(\.language) == ["eng", "ger"])
        let variant = try #require(master.variants.first)
        #expect(variant.attributes.resolution == Resolution(width: 160, height: 90))
        #expect(variant.attributes.codecs.first?.hasPrefix("avc1.") == true)
        #expect(variant.attributes.codecs.contains("mp4a.40.2"))
        #expect(variant.frameRate == 25)
        #expect(variant.attributes.videoRange == .sdr)
        let bandwidth = try #require(variant.attributes.bandwidth)
        let average = try #require(variant.attributes.averageBandwidth)
        #expect(average <= bandwidth && average > 50_000)
        #expect(master.iFrameVariants.count == 1)
        #expect(master.imageVariants.count == 1)

        for relative in [variant.uri] + master.renditions.compactMap(\.uri) + master.iFrameVariants.map(\.uri) + master.imageVariants.map(\.uri) {
            _ = try strictlyParse((out as NSString).appendingPathComponent(relative))
        }
        let iframes = try #require(try strictlyParse((out as NSString).appendingPathComponent(master.iFrameVariants[0].uri)).media)
        #expect(iframes.iFramesOnly)
        #expect(iframes.segments.count >= 1)
        let images = try #require(try strictlyParse((out as NSString).appendingPathComponent(master.imageVariants[0].uri)).media)
        #expect(images.imagesOnly)
        #expect(images.segments.first?.tiles?.columns == 5)
        let subtitlePlaylist = try #require(try strictlyParse((out as NSString).appendingPathComponent("subtitles-1/index.m3u8")).media)
        #expect(subtitlePlaylist.segments.map(\.uri) == ["subtitles-00001.vtt", "subtitles-00002.vtt"])
        let vtt = try String(contentsOfFile: (out as NSString).appendingPathComponent("subtitles-1/subtitles-00001.vtt"), encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:0\n\n"), "\(vtt)")
        // Cue times are the container's (ffmpeg shifted the SubRip input by the video's start).
        let packets = try FFmpegTool.probe(source, ["-select_streams", "s:0", "-show_entries", "packet=pts_time"])
        let firstText = (packets["packets"] as? [[String: Any]])?.first?["pts_time"] as? String
        let firstCue = try #require(firstText.flatMap { Double($0) })
        #expect(vtt.contains("\(WebVTTSegmenterTests.cueTime(firstCue)) --> \(WebVTTSegmenterTests.cueTime(firstCue + 1))\nHello"), "\(vtt)")
        let sprites = try String(contentsOfFile: (out as NSString).appendingPathComponent("images/thumbnails.vtt"), encoding: .utf8)
        #expect(sprites.contains("tiles-00001.jpg#xywh=0,0,"))

        // ffprobe reads the package through the multivariant playlist.
        let probe = try FFmpegTool.probe(result.multivariantPath, ["-show_streams"])
        let kinds = (probe["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_type"] as? String }
        #expect(kinds.contains("video") && kinds.contains("audio"))
        let decoded = try FFmpegTool.videoFrameTimes((out as NSString).appendingPathComponent(variant.uri))
        #expect(decoded.count == 100)

        // The package opens as an asset through its HLS playlists.
        let hlsAsset = MediaAsset(path: result.multivariantPath)
        let (hlsDuration, hlsTracks) = try await hlsAsset.load(.duration, .tracks)
        #expect(abs(hlsDuration.seconds - 4) < 0.2)
        #expect(hlsTracks.contains { $0.mediaType == .video && $0.codec == "h264" })
        #expect(hlsTracks.filter { $0.mediaType == .audio }.compactMap(\.language).sorted() == ["eng", "fra"])
        // Thumbnails from the video variant's playlist (FFmpeg's HLS demuxer cannot seek back
        // once a short playlist was read to its end; the generator reopens it).
        var hlsGenerator = ImageGenerator(asset: MediaAsset(path: (out as NSString).appendingPathComponent(variant.uri)))
        hlsGenerator.setTolerance(.zero)
        var hlsTimes: [Double] = []
        for await result in hlsGenerator.images(for: [MediaTime(seconds: 1), MediaTime(seconds: 3)]) {
            #expect(try result.image.size == PixelSize(width: 160, height: 90))
            hlsTimes.append(try result.actualTime.seconds)
        }
        #expect(hlsTimes.count == 2 && abs(hlsTimes[0] - 1) < 0.05 && abs(hlsTimes[1] - 3) < 0.05, "\(hlsTimes)")
    }

    @Test func ladderEncodesEachRungNoTallerThanTheSource() async throws {
        let source = try await MediaFixtures.shared.counter()
        let out = MediaFixtures.shared.scratch("package-ladder")
        var options = PackagingOptions(ladder: [1080, 240, 120])
        options.segmentDuration = 2
        options.makesImagePlaylist = false
        let result = try await HLSPackager(asset: MediaAsset(path: source), options: options).package(to: out)
        let master = try #require(try strictlyParse(result.multivariantPath).multivariant)
        #expect(master.variants.map { $0.attributes.resolution } == [Resolution(width: 320, height: 240), Resolution(width: 160, height: 120)])
        #expect(result.renditions.filter { $0.kind == .video }.allSatisfy { $0.method == .encoded })
        let bandwidths = master.variants.compactMap { $0.attributes.bandwidth }
        #expect(bandwidths.count == 2 && bandwidths[0] > bandwidths[1])
        for variant in master.variants {
            let media = try #require(try strictlyParse((out as NSString).appendingPathComponent(variant.uri)).media)
            #expect(abs(media.duration - 10) < 0.2)
            #expect(media.segments.allSatisfy { $0.duration <= Double(media.targetDuration ?? 0) + 0.5 })
            let (width, height, codec) = try FFmpegTool.dimensions((out as NSString).appendingPathComponent(variant.uri))
            #expect(codec == "h264")
            #expect(Resolution(width: width, height: height) == variant.attributes.resolution)
        }
    }

    @Test func tenBitHEVCIsCopiedWithPQVideoRange() async throws {
        let out = MediaFixtures.shared.scratch("package-hevc")
        var options = PackagingOptions()
        options.makesImagePlaylist = false
        let result = try await HLSPackager(asset: MediaAsset(path: try await MediaFixtures.shared.hevc10bit()), options: options).package(to: out)
        let master = try #require(try strictlyParse(result.multivariantPath).multivariant)
        let variant = try #require(master.variants.first)
        #expect(variant.attributes.videoRange == .pq)
        #expect(variant.attributes.codecs.first?.hasPrefix("hvc1.2.4.L") == true, "\(variant.attributes.codecs)")
        #expect(master.renditions.isEmpty)
    }

    @Test func audioOnlyPackagesAsAnAudioVariant() async throws {
        let out = MediaFixtures.shared.scratch("package-audio")
        let result = try await HLSPackager(asset: MediaAsset(path: try await MediaFixtures.shared.audioOnly())).package(to: out)
        let master = try #require(try strictlyParse(result.multivariantPath).multivariant)
        #expect(master.variants.first?.attributes.codecs == ["mp4a.40.2"])
        #expect(master.iFrameVariants.isEmpty && master.imageVariants.isEmpty)
    }
}

/// Renditions start together and end cleanly: the first picture and the first sound are both
/// at zero (B-frame delay and AAC priming are not shifted away per stream), and no playlist
/// ends on a runt segment of a few milliseconds.
@Suite struct PackagerTimingTests {
    /// 10 s at 24 fps, x264 with B-frames and a keyframe every 2 s, AAC at 48 kHz (whose
    /// priming packet starts 21 ms before zero): exactly five 2-second segments of content.
    func source() async throws -> String {
        let path = MediaFixtures.shared.scratch("timing.mp4")
        try await FFmpegTool.ffmpegOffPool([
            "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=24:duration=10",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=10:sample_rate=48000",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "48", "-c:a", "aac", path,
        ])
        return path
    }

    func package(_ source: String, ladder: [Int]?) async throws -> String {
        let out = MediaFixtures.shared.scratch("package-timing")
        var options = PackagingOptions(ladder: ladder)
        options.segmentDuration = 2
        options.makesImagePlaylist = false
        options.makesIFramePlaylist = false
        options.copyableAudioCodecs = ["aac"]
        _ = try await HLSPackager(asset: MediaAsset(path: source), options: options).package(to: out)
        return out
    }

    func media(_ path: String) throws -> MediaPlaylist {
        let result = PlaylistParser.parse(try String(contentsOfFile: path, encoding: .utf8), options: .strict)
        #expect(result.errors.isEmpty, "\(path): \(result.errors)")
        return try #require(result.playlist?.media)
    }

    @Test(arguments: [nil, [90]] as [[Int]?])
    func firstPictureAndFirstSoundAreAtZero(ladder: [Int]?) async throws {
        let out = try await package(try await source(), ladder: ladder)
        let videoPlaylist = (out as NSString).appendingPathComponent(ladder == nil ? "video/index.m3u8" : "video-90/index.m3u8")
        let frames = try FFmpegTool.videoFrameTimes(videoPlaylist)
        #expect(frames.count == 240)
        #expect(abs((frames.first ?? -1) - 0) < 0.001, "the first picture is at \(frames.first ?? -1) s, not 0")
        #expect(abs((frames.last ?? -1) - 239.0 / 24) < 0.001)
        // Audio decodes from its priming packet (before zero); its first sound is at zero.
        let audio = try FFmpegTool.probe(
            (out as NSString).appendingPathComponent("audio-1/index.m3u8"),
            ["-select_streams", "a:0", "-show_entries", "packet=pts_time"])
        let times = (audio["packets"] as? [[String: Any]] ?? []).compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }
        #expect(abs((times.first ?? -1) + 1024.0 / 48000) < 0.0005, "audio starts at \(times.first ?? -1) s")
        #expect(times.contains { abs($0) < 0.0005 })
    }

    @Test(arguments: [nil, [90]] as [[Int]?])
    func noPlaylistEndsOnARuntSegment(ladder: [Int]?) async throws {
        let source = try await source()
        let out = try await package(source, ladder: ladder)
        let videoPlaylist = ladder == nil ? "video/index.m3u8" : "video-90/index.m3u8"
        for relative in [videoPlaylist, "audio-1/index.m3u8"] {
            let path = (out as NSString).appendingPathComponent(relative)
            let playlist = try media(path)
            let last = try #require(playlist.segments.last)
            #expect(last.duration >= TrailingSegment.threshold(segmentDuration: 2), "\(relative) ends on a \(last.duration) s segment")
            #expect(abs(playlist.duration - 10) < 0.1, "\(relative) lasts \(playlist.duration) s")
            #expect(playlist.segments.allSatisfy { Double(playlist.targetDuration ?? 0) >= $0.duration.rounded() })
            // Every listed segment exists and nothing else is left in the folder.
            let folder = (path as NSString).deletingLastPathComponent
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".m4s") }.sorted()
            #expect(files == playlist.segments.map(\.uri).sorted())
        }
        // The folded segment holds all the sound: every AAC packet of the source is there.
        let original = try FFmpegTool.probe(source, ["-select_streams", "a:0", "-count_packets", "-show_entries", "stream=nb_read_packets"])
        let packaged = try FFmpegTool.probe(
            (out as NSString).appendingPathComponent("audio-1/index.m3u8"),
            ["-select_streams", "a:0", "-count_packets", "-show_entries", "stream=nb_read_packets"])
        func count(_ json: [String: Any]) -> String? { (json["streams"] as? [[String: Any]])?.first?["nb_read_packets"] as? String }
        #expect(count(packaged) != nil && count(packaged) == count(original))
    }

    @Test func foldingGrowsTheSegmentIndexOverBothFragments() throws {
        // Two segments as libavformat writes them: styp, sidx (one reference), moof, mdat.
        func segment(duration: UInt32, payload: Int) -> [UInt8] {
            func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
                let size = UInt32(8 + body.count)
                return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
            }
            func word(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
            let fragment = box("moof", Array(repeating: 1, count: 16)) + box("mdat", Array(repeating: 2, count: payload))
            let sidx = box(
                "sidx",
                [0, 0, 0, 0] + word(1) + word(48000) + word(0) + word(0) + [0, 0, 0, 1]
                    + word(UInt32(fragment.count)) + word(duration) + word(0x9000_0000))
            return box("styp", Array("msdh".utf8) + word(0)) + sidx + fragment
        }
        let head = segment(duration: 96256, payload: 100)
        let runt = segment(duration: 1024, payload: 7)
        let merged = try TrailingSegment.merge(head, runt, url: "test")
        let boxes = try TrailingSegment.boxes(merged, url: "test")
        #expect(boxes.map(\.type) == ["styp", "sidx", "moof", "mdat", "moof", "mdat"])
        let index = try #require(TrailingSegment.SegmentIndex(merged, boxes[1]))
        #expect(index.subsegmentDuration == 96256 + 1024)
        let referenced = Int(TrailingSegment.readUInt32(merged, boxes[1].range.lowerBound + index.referenceOffset) & 0x7FFF_FFFF)
        #expect(referenced == merged.count - boxes[2].range.lowerBound)
    }
}

@Suite struct PackagerTranscodeTests {
    @Test func incompatibleCodecsAreTranscodedToH264AndAAC() async throws {
        let source = MediaFixtures.shared.scratch("mpeg4-mp3.mkv")
        try await FFmpegTool.ffmpegOffPool([
            "-f", "lavfi", "-i", "testsrc2=s=256x144:r=25:d=3", "-f", "lavfi", "-i", "sine=frequency=300:duration=3",
            "-c:v", "mpeg4", "-c:a", "libmp3lame", "-metadata:s:a:0", "language=spa", source,
        ])
        let out = MediaFixtures.shared.scratch("package-transcode")
        var options = PackagingOptions()
        options.segmentDuration = 1
        options.makesImagePlaylist = false
        let result = try await HLSPackager(asset: MediaAsset(path: source), options: options).package(to: out)
        #expect(result.renditions.map(\.method) == [.encoded, .encoded])
        let text = try String(contentsOfFile: result.multivariantPath, encoding: .utf8)
        let master = try #require(PlaylistParser.parse(text, options: .strict).playlist?.multivariant)
        let variant = try #require(master.variants.first)
        #expect(variant.attributes.codecs.first?.hasPrefix("avc1.") == true)
        #expect(variant.attributes.codecs.last == "mp4a.40.2")
        #expect(master.renditions.first?.language == "spa")
        #expect(master.renditions.first?.channels?.count == 1)  // the sine is mono, and stays so
        let (width, height, codec) = try FFmpegTool.dimensions((out as NSString).appendingPathComponent(variant.uri))
        #expect(codec == "h264" && width == 256 && height == 144)
        let audio = try FFmpegTool.probe((out as NSString).appendingPathComponent("audio-1/index.m3u8"), ["-show_streams"])
        #expect((audio["streams"] as? [[String: Any]])?.first?["codec_name"] as? String == "aac")
    }

    @Test func progressMovesWithinEachStepNotOnlyBetweenThem() async throws {
        let source = MediaFixtures.shared.scratch("progress-source.mkv")
        try await FFmpegTool.ffmpegOffPool([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=8", "-f", "lavfi", "-i", "sine=frequency=300:duration=8",
            "-c:v", "mpeg4", "-c:a", "libmp3lame", source,
        ])
        var options = PackagingOptions()
        options.segmentDuration = 1
        options.makesImagePlaylist = false
        let reported = Mutex<[Double]>([])
        _ = try await HLSPackager(asset: MediaAsset(path: source), options: options).package(to: MediaFixtures.shared.scratch("package-progress")) {
            value in reported.withLock { $0.append(value) }
        }
        let values = reported.withLock { $0 }
        // Steps: video encode, I-frames, image playlist (off but counted), audio encode — quarters.
        let betweenSteps = values.filter { abs($0 * 4 - ($0 * 4).rounded()) > 0.01 }
        #expect(betweenSteps.count >= 20, "\(values.count) values, \(betweenSteps.count) inside steps")
        #expect(values == values.sorted() && values.last == 1)
    }

    @Test func phoneVideoIsPackagedUpright() async throws {
        let source = try await MediaFixtures.shared.rotatedPhone()
        let out = MediaFixtures.shared.scratch("package-phone")
        var options = PackagingOptions()
        options.segmentDuration = 1
        options.makesImagePlaylist = false
        options.makesIFramePlaylist = false
        let result = try await HLSPackager(asset: MediaAsset(path: source), options: options).package(to: out)
        #expect(result.renditions.first { $0.kind == .video }?.method == .encoded)
        let variant = try #require(result.multivariant.variants.first)
        #expect(variant.attributes.resolution == Resolution(width: 180, height: 320))
        let stream = (out as NSString).appendingPathComponent(variant.uri)
        let (image, _) = try await ImageGenerator(asset: MediaAsset(path: stream)).image(at: MediaTime(seconds: 1))
        #expect(image.size == PixelSize(width: 180, height: 320))
        #expect(ReferenceFrame.difference(image, try ReferenceFrame.rgb(source, at: 1, size: image.size)) < 8)
    }

    @Test func surroundStaysSurroundWhenTranscoded() async throws {
        // FLAC 5.1 is not HLS-ready; the AAC it becomes keeps six channels (and a 7.1 source
        // keeps eight) instead of being folded down to stereo.
        for (layout, count) in [("5.1", 6), ("7.1", 8)] {
            let source = MediaFixtures.shared.scratch("surround-\(count).mka")
            try await FFmpegTool.ffmpegOffPool([
                "-f", "lavfi", "-i", "sine=frequency=220:duration=3", "-f", "lavfi", "-i", "sine=frequency=880:duration=3",
                "-filter_complex", "[0][1]amerge=inputs=2,pan=\(layout)|c0=c0|c1=c1" + (2..<count).map { "|c\($0)=c\($0 % 2)" }.joined(),
                "-c:a", "flac", source,
            ])
            let out = MediaFixtures.shared.scratch("package-surround-\(count)")
            var options = PackagingOptions()
            options.segmentDuration = 1
            let result = try await HLSPackager(asset: MediaAsset(path: source), options: options).package(to: out)
            #expect(result.renditions.map(\.method) == [.encoded])
            let text = try String(contentsOfFile: result.multivariantPath, encoding: .utf8)
            let master = try #require(PlaylistParser.parse(text, options: .strict).playlist?.multivariant)
            #expect(master.renditions.first?.channels?.count == count, "\(layout)")
            let probe = try FFmpegTool.probe((out as NSString).appendingPathComponent("audio-1/index.m3u8"), ["-show_streams"])
            let stream = (probe["streams"] as? [[String: Any]])?.first
            #expect(stream?["codec_name"] as? String == "aac" && stream?["channels"] as? Int == count, "\(layout)")
        }
    }
}
