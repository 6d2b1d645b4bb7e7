import CFFmpeg
import Foundation
import HLS

/// Turns a media file into CMAF (fMP4) HLS: a multivariant playlist with video variants,
/// every audio track as an `EXT-X-MEDIA` rendition, text subtitles as WebVTT renditions, and
/// I-frame and image (trick-play) playlists.
///
/// Video and audio are copied when their codecs are HLS-compatible (H.264, HEVC; AAC, AC-3,
/// E-AC-3) and encoded otherwise (H.264, AAC); rotated (phone) video is encoded upright; a ladder encodes one H.264 variant per
/// height. BANDWIDTH, AVERAGE-BANDWIDTH, CODECS, RESOLUTION, FRAME-RATE and VIDEO-RANGE are
/// computed from the written files, and every playlist is checked with the `HLS` parser in
/// strict mode before the result is returned.
public struct HLSPackager: Sendable {
    public let asset: MediaAsset
    public var options: PackagingOptions

    static let copyableVideo: Set<String> = ["h264", "hevc"]
    static let copyableAudio: Set<String> = ["aac", "ac3", "eac3"]

    public init(asset: MediaAsset, options: PackagingOptions = PackagingOptions()) {
        self.asset = asset
        self.options = options
    }

    /// Writes the package into `directory` (created if needed) and returns what was written.
    ///
    /// Each step below returns what it wrote; every file-system call and every FFmpeg call
    /// runs on the asset's `MediaThreadPool`, never on the cooperative pool.
    public func package(to directory: String, progress: @escaping @Sendable (Double) -> Void = { _ in }) async throws -> PackagingResult {
        let (tracks, duration) = try await asset.load(.tracks, .duration)
        let plan = try PackagingPlan(tracks: tracks, duration: duration, options: options, source: asset.source)
        try await asset.pool.run { _ in try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        var meter = StepMeter(steps: plan.stepCount, report: progress)

        let videos = try await packageVideo(plan, into: directory, meter: &meter)
        let audio = try await packageAudio(plan, into: directory, meter: &meter)
        let subtitles = try await packageSubtitles(plan, into: directory, meter: &meter)
        let iFrames = try await packageIFramePlaylist(from: videos.first, into: directory, meter: &meter)
        var tiles: ThumbnailTiles.Output?
        if options.makesImagePlaylist, plan.video != nil {
            let folder = (directory as NSString).appendingPathComponent("images")
            tiles = try await ThumbnailTiles.make(asset: asset, duration: duration, options: options, directory: folder)
            meter.advance()
        }

        let result = try await MultivariantBuilder(
            directory: directory, video: plan.video, audios: plan.audios, subtitles: plan.subtitles,
            videoRelatives: videos.map { ($0.relative, $0.size, $0.frameRate) },
            audioRelatives: audio.map(\.playlist), subtitleRelatives: subtitles.map(\.playlist),
            iFrameRelative: iFrames, tiles: tiles, pool: asset.pool
        ).build()
        progress(1)
        return PackagingResult(
            directory: directory, multivariantPath: result.path, multivariant: result.playlist,
            renditions: videos.map(\.rendition) + audio + subtitles, warnings: result.warnings)
    }

    /// What will be packaged: the video track (not cover art), every audio track, the text
    /// subtitle tracks, and how many steps that makes for progress.
    struct PackagingPlan: Sendable {
        var video: AssetTrack?
        var audios: [AssetTrack]
        var subtitles: [AssetTrack]
        var duration: MediaTime
        var stepCount: Int

        init(tracks: [AssetTrack], duration: MediaTime, options: PackagingOptions, source: AssetSource) throws {
            guard duration.isNumeric, duration > .zero else {
                throw MediaError(.packaging, url: source.displayName, message: "only media with a known duration can be packaged")
            }
            video = tracks.first { $0.mediaType == .video && !$0.isAttachedPicture }
            audios = tracks.filter { $0.mediaType == .audio }
            subtitles = tracks.filter { $0.mediaType == .subtitle && WebVTTSegmenter.textCodecs.contains($0.codec) }
            guard video != nil || !audios.isEmpty else {
                throw MediaError(.packaging, url: source.displayName, message: "no audio or video track to package")
            }
            self.duration = duration
            stepCount = max(1, (video == nil ? 0 : (options.ladder?.count ?? 1) + 2) + audios.count + subtitles.count)
        }
    }

    /// Progress over the package's steps, reported as 0…0.99 until the end.
    struct StepMeter {
        let steps: Double
        let report: @Sendable (Double) -> Void
        private var done = 0.0

        init(steps: Int, report: @escaping @Sendable (Double) -> Void) {
            self.steps = Double(steps)
            self.report = report
        }

        mutating func advance() {
            done += 1
            report(min(0.99, done / steps))
        }

        /// Progress within the next `count` steps (0…1 of them), for work on pool threads.
        func within(steps count: Int = 1) -> @Sendable (Double) -> Void {
            let base = done
            let total = steps
            let span = Double(count)
            let report = report
            return { fraction in report(min(0.99, (base + fraction * span) / total)) }
        }
    }

    /// One written video variant.
    struct VideoOutput: Sendable {
        var relative: String
        var size: PixelSize
        var frameRate: Double?
        var rendition: PackagingResult.Rendition
    }

    /// Video variants: the ladder's heights encoded, or the source copied when HLS can carry
    /// it upright, or one upright encode.
    func packageVideo(_ plan: PackagingPlan, into directory: String, meter: inout StepMeter) async throws -> [VideoOutput] {
        guard let video = plan.video, let natural = video.naturalSize else { return [] }
        let (pool, source, asset, duration, segmentDuration) = (asset.pool, asset.source, asset, plan.duration, options.segmentDuration)
        let display = video.presentationSize ?? natural
        let frameRate = video.nominalFrameRate
        let frameDuration = frameRate.map { MediaTime(value: 1000, timescale: Int32(($0 * 1000).rounded())) } ?? MediaTime(value: 1, timescale: 30)
        func encode(_ size: PixelSize, folder: String) async throws -> VideoOutput {
            let report = meter.within()
            let target = (directory as NSString).appendingPathComponent(folder)
            _ = try await pool.run { flag in
                try RenditionSegmenter.encodeVideo(
                    asset: asset, track: video, duration: duration, size: size, frameDuration: frameDuration,
                    directory: target, segmentDuration: segmentDuration, flag: flag, progress: report)
            }
            let relative = BundleLayout.mediaPlaylist(inFolder: folder)
            return VideoOutput(
                relative: relative, size: size, frameRate: frameRate,
                rendition: .init(kind: .video, playlist: relative, method: .encoded, sourceTrack: video.id))
        }
        var outputs: [VideoOutput] = []
        if let ladder = options.ladder, !ladder.isEmpty {
            var heights = ladder.filter { $0 <= display.height }.sorted(by: >)
            if heights.isEmpty { heights = [display.height] }
            // Every rung from one decode of the source (as one ffmpeg command with a split
            // filter makes them): the rungs' encoders run side by side on their own threads.
            let sizes = heights.map { height in
                PixelSize(width: max(2, Int((Double(display.width) * Double(height) / Double(display.height)).rounded()) & ~1), height: height & ~1)
            }
            let folders = sizes.map { "video-\($0.height)" }
            let rungs = zip(sizes, folders).map { (size: $0, directory: (directory as NSString).appendingPathComponent($1)) }
            let report = meter.within(steps: sizes.count)
            _ = try await pool.run { flag in
                try RenditionSegmenter.encodeVideo(
                    asset: asset, track: video, duration: duration, rungs: rungs, frameDuration: frameDuration,
                    segmentDuration: segmentDuration, flag: flag, progress: report)
            }
            for (size, folder) in zip(sizes, folders) {
                let relative = BundleLayout.mediaPlaylist(inFolder: folder)
                outputs.append(
                    VideoOutput(
                        relative: relative, size: size, frameRate: frameRate,
                        rendition: .init(kind: .video, playlist: relative, method: .encoded, sourceTrack: video.id)))
                meter.advance()
            }
        } else if Self.copyableVideo.contains(video.codec), video.displayRotation == 0 {
            // (Phone video with a display matrix is encoded upright instead: players of
            // fMP4 HLS need not honour the matrix.)
            let report = meter.within()
            let target = (directory as NSString).appendingPathComponent("video")
            _ = try await pool.run { flag in
                try RenditionSegmenter.copy(
                    source: source, streamIndex: video.id, directory: target,
                    segmentDuration: segmentDuration, flag: flag, progress: report)
            }
            let relative = BundleLayout.mediaPlaylist(inFolder: "video")
            outputs.append(
                VideoOutput(
                    relative: relative, size: display, frameRate: frameRate,
                    rendition: .init(kind: .video, playlist: relative, method: .copied, sourceTrack: video.id)))
            meter.advance()
        } else {
            outputs.append(try await encode(PixelSize(width: display.width & ~1, height: display.height & ~1), folder: "video"))
            meter.advance()
        }
        return outputs
    }

    /// Every audio track as a rendition: copied when the options allow its codec, else AAC.
    func packageAudio(_ plan: PackagingPlan, into directory: String, meter: inout StepMeter) async throws -> [PackagingResult.Rendition] {
        let (pool, source, asset, duration, segmentDuration) = (asset.pool, asset.source, asset, plan.duration, options.segmentDuration)
        var renditions: [PackagingResult.Rendition] = []
        for (index, audio) in plan.audios.enumerated() {
            let folder = "audio-\(index + 1)"
            let target = (directory as NSString).appendingPathComponent(folder)
            let copy = options.copyableAudioCodecs.contains(audio.codec)
            let report = meter.within()
            _ = try await pool.run { flag in
                copy
                    ? try RenditionSegmenter.copy(
                        source: source, streamIndex: audio.id, directory: target,
                        segmentDuration: segmentDuration, flag: flag, progress: report)
                    : try RenditionSegmenter.encodeAudio(
                        asset: asset, track: audio, duration: duration, directory: target,
                        segmentDuration: segmentDuration, flag: flag, progress: report)
            }
            renditions.append(
                .init(
                    kind: .audio, playlist: BundleLayout.mediaPlaylist(inFolder: folder), method: copy ? .copied : .encoded,
                    sourceTrack: audio.id))
            meter.advance()
        }
        return renditions
    }

    /// Text subtitles as segmented WebVTT renditions (FFmpeg's encoder and muxer), one playlist each.
    func packageSubtitles(_ plan: PackagingPlan, into directory: String, meter: inout StepMeter) async throws -> [PackagingResult.Rendition] {
        let (source, duration, segmentDuration) = (asset.source, plan.duration.seconds, options.segmentDuration)
        var renditions: [PackagingResult.Rendition] = []
        for (index, subtitle) in plan.subtitles.enumerated() {
            let folder = "subtitles-\(index + 1)"
            let target = (directory as NSString).appendingPathComponent(folder)
            let playlistPath = (directory as NSString).appendingPathComponent(BundleLayout.mediaPlaylist(inFolder: folder))
            try await asset.pool.run { flag in
                try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
                let written = try WebVTTSegmenter.write(
                    source: source, streamIndex: subtitle.id, duration: duration,
                    segmentDuration: segmentDuration, into: target, flag: flag)
                var playlist = MediaPlaylist()
                playlist.version = 7
                playlist.playlistType = .vod
                playlist.endList = true
                playlist.targetDuration = Int((written.map(\.duration).max() ?? 1).rounded(.up))
                playlist.segments = written.map { MediaSegment(uri: $0.name, duration: $0.duration) }
                try PlaylistWriter.write(playlist).write(toFile: playlistPath, atomically: true, encoding: .utf8)
            }
            renditions.append(.init(kind: .subtitle, playlist: BundleLayout.mediaPlaylist(inFolder: folder), method: .encoded, sourceTrack: subtitle.id))
            meter.advance()
        }
        return renditions
    }

    /// The I-frame playlist, made from the first (largest) video variant's keyframes.
    func packageIFramePlaylist(from top: VideoOutput?, into directory: String, meter: inout StepMeter) async throws -> String? {
        guard options.makesIFramePlaylist, let top else { return nil }
        @Sendable func path(_ relative: String) -> String { (directory as NSString).appendingPathComponent(relative) }
        let segmentDuration = options.segmentDuration
        let variantPlaylist = path(top.relative)
        let report = meter.within()
        try await asset.pool.run { flag in
            _ = try RenditionSegmenter.copy(
                source: .url(URL(fileURLWithPath: variantPlaylist)), streamIndex: 0,
                directory: path("iframes"), segmentDuration: segmentDuration, keyframesOnly: true, flag: flag,
                progress: report)
            let written = path(BundleLayout.mediaPlaylist(inFolder: "iframes"))
            let text = try String(contentsOfFile: written, encoding: .utf8)
            guard var playlist = PlaylistParser.parse(text, options: .strict).playlist?.media else {
                throw MediaError(.packaging, url: written, message: "FFmpeg's I-frame segment playlist does not parse")
            }
            playlist.iFramesOnly = true
            playlist.version = 7
            // The last I-frame lasts until the video ends, as the variant it was cut from says
            // (FFmpeg's guess from the stream's duration overran it by up to a segment or more).
            let variantText = try String(contentsOfFile: variantPlaylist, encoding: .utf8)
            if let variant = PlaylistParser.parse(variantText, options: .strict).playlist?.media, !playlist.segments.isEmpty {
                let lastStart = playlist.segments.dropLast().reduce(0) { $0 + $1.duration }
                let remaining = variant.duration - lastStart
                if remaining > 0 { playlist.segments[playlist.segments.count - 1].duration = remaining }
                playlist.targetDuration = max(playlist.targetDuration ?? 1, Int((playlist.segments.map(\.duration).max() ?? 1).rounded()))
            }
            try PlaylistWriter.write(playlist).write(toFile: path(BundleLayout.iFramePlaylist), atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(atPath: written)
        }
        meter.advance()
        return BundleLayout.iFramePlaylist
    }
}
