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
public struct Packager: Sendable {
    public let asset: Asset
    public var options: PackagingOptions

    static let copyableVideo: Set<String> = ["h264", "hevc"]
    static let copyableAudio: Set<String> = ["aac", "ac3", "eac3"]

    public init(asset: Asset, options: PackagingOptions = PackagingOptions()) {
        self.asset = asset
        self.options = options
    }

    /// Writes the package into `directory` (created if needed) and returns what was written.
    public func package(to directory: String, progress: @escaping @Sendable (Double) -> Void = { _ in }) async throws -> PackagingResult {
        let (tracks, duration) = try await asset.load(.tracks, .duration)
        guard duration.isNumeric, duration > .zero else {
            throw MediaError(.packaging, url: asset.source.displayName, message: "only media with a known duration can be packaged")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let pool = asset.pool
        let source = asset.source
        let asset = self.asset
        let options = self.options
        let segmentDuration = options.segmentDuration
        @Sendable func path(_ relative: String) -> String { (directory as NSString).appendingPathComponent(relative) }

        let video = tracks.first { $0.mediaType == .video && !$0.isAttachedPicture }
        let audios = tracks.filter { $0.mediaType == .audio }
        let subtitles = tracks.filter { $0.mediaType == .subtitle && WebVTTSegmenter.textCodecs.contains($0.codec) }
        guard video != nil || !audios.isEmpty else {
            throw MediaError(.packaging, url: source.displayName, message: "no audio or video track to package")
        }
        var renditions: [PackagingResult.Rendition] = []
        var steps = Double((video == nil ? 0 : (options.ladder?.count ?? 1) + 2) + audios.count + subtitles.count)
        steps = max(steps, 1)
        var done = 0.0
        func advance() { done += 1; progress(min(0.99, done / steps)) }
        /// Progress within the current step (0…1 of it), for the work on pool threads.
        func within() -> @Sendable (Double) -> Void {
            let base = done, total = steps
            return { fraction in progress(min(0.99, (base + fraction) / total)) }
        }

        // Video variants.
        struct VideoOutput { var relative: String; var size: PixelSize; var frameRate: Double? }
        var videoOutputs: [VideoOutput] = []
        if let video, let natural = video.naturalSize {
            let display = video.presentationSize ?? natural
            let frameRate = video.nominalFrameRate
            let frameDuration = frameRate.map { MediaTime(value: 1000, timescale: Int32(($0 * 1000).rounded())) } ?? MediaTime(value: 1, timescale: 30)
            if let ladder = options.ladder, !ladder.isEmpty {
                var heights = ladder.filter { $0 <= display.height }.sorted(by: >)
                if heights.isEmpty { heights = [display.height] }
                for height in heights {
                    let width = max(2, Int((Double(display.width) * Double(height) / Double(display.height)).rounded()) & ~1)
                    let size = PixelSize(width: width, height: height & ~1)
                    let relative = BundleLayout.mediaPlaylist(inFolder: "video-\(size.height)")
                    let report = within()
                    _ = try await pool.run { flag in
                        try HLSSegmenter.encodeVideo(asset: asset, track: video, duration: duration, size: size, frameDuration: frameDuration,
                                                     directory: path("video-\(size.height)"), segmentDuration: segmentDuration, flag: flag,
                                                     progress: report)
                    }
                    videoOutputs.append(VideoOutput(relative: relative, size: size, frameRate: frameRate))
                    renditions.append(.init(kind: .video, playlist: relative, method: .encoded, sourceTrack: video.id))
                    advance()
                }
            } else if Self.copyableVideo.contains(video.codec), video.displayRotation == 0 {
                // (Phone video with a display matrix is encoded upright instead: players of
                // fMP4 HLS need not honour the matrix.)
                let report = within()
                _ = try await pool.run { flag in
                    try HLSSegmenter.copy(source: source, streamIndex: video.id, directory: path("video"),
                                          segmentDuration: segmentDuration, flag: flag, progress: report)
                }
                videoOutputs.append(VideoOutput(relative: BundleLayout.mediaPlaylist(inFolder: "video"), size: display, frameRate: frameRate))
                renditions.append(.init(kind: .video, playlist: BundleLayout.mediaPlaylist(inFolder: "video"), method: .copied, sourceTrack: video.id))
                advance()
            } else {
                let size = PixelSize(width: display.width & ~1, height: display.height & ~1)
                let report = within()
                _ = try await pool.run { flag in
                    try HLSSegmenter.encodeVideo(asset: asset, track: video, duration: duration, size: size, frameDuration: frameDuration,
                                                 directory: path("video"), segmentDuration: segmentDuration, flag: flag, progress: report)
                }
                videoOutputs.append(VideoOutput(relative: BundleLayout.mediaPlaylist(inFolder: "video"), size: size, frameRate: frameRate))
                renditions.append(.init(kind: .video, playlist: BundleLayout.mediaPlaylist(inFolder: "video"), method: .encoded, sourceTrack: video.id))
                advance()
            }
        }

        // Audio renditions.
        var audioRelatives: [String] = []
        for (index, audio) in audios.enumerated() {
            let folder = "audio-\(index + 1)"
            let copy = options.copyableAudioCodecs.contains(audio.codec)
            let report = within()
            _ = try await pool.run { flag in
                copy
                    ? try HLSSegmenter.copy(source: source, streamIndex: audio.id, directory: path(folder),
                                            segmentDuration: segmentDuration, flag: flag, progress: report)
                    : try HLSSegmenter.encodeAudio(asset: asset, track: audio, duration: duration, directory: path(folder),
                                                   segmentDuration: segmentDuration, flag: flag, progress: report)
            }
            audioRelatives.append(BundleLayout.mediaPlaylist(inFolder: folder))
            renditions.append(.init(kind: .audio, playlist: BundleLayout.mediaPlaylist(inFolder: folder), method: copy ? .copied : .encoded, sourceTrack: audio.id))
            advance()
        }

        // Subtitle renditions: segmented WebVTT (FFmpeg's encoder and muxer), one playlist each.
        var subtitleRelatives: [String] = []
        for (index, subtitle) in subtitles.enumerated() {
            let folder = "subtitles-\(index + 1)"
            try FileManager.default.createDirectory(atPath: path(folder), withIntermediateDirectories: true)
            let segmentDuration = options.segmentDuration
            let written = try await pool.run { flag in
                try WebVTTSegmenter.write(source: source, streamIndex: subtitle.id, duration: duration.seconds,
                                          segmentDuration: segmentDuration, into: path(folder), flag: flag)
            }
            var playlist = MediaPlaylist()
            playlist.version = 7
            playlist.playlistType = .vod
            playlist.endList = true
            playlist.targetDuration = Int((written.map(\.duration).max() ?? 1).rounded(.up))
            playlist.segments = written.map { MediaSegment(uri: $0.name, duration: $0.duration) }
            try PlaylistWriter.write(playlist).write(toFile: path(BundleLayout.mediaPlaylist(inFolder: folder)), atomically: true, encoding: .utf8)
            subtitleRelatives.append(BundleLayout.mediaPlaylist(inFolder: folder))
            renditions.append(.init(kind: .subtitle, playlist: BundleLayout.mediaPlaylist(inFolder: folder), method: .encoded, sourceTrack: subtitle.id))
            advance()
        }

        // I-frame playlist from the first (largest) video variant.
        var iFrameRelative: String?
        if options.makesIFramePlaylist, let top = videoOutputs.first {
            let variantPlaylist = path(top.relative)
            let report = within()
            _ = try await pool.run { flag in
                try HLSSegmenter.copy(source: .url(URL(fileURLWithPath: variantPlaylist)), streamIndex: 0,
                                      directory: path("iframes"), segmentDuration: segmentDuration, keyframesOnly: true, flag: flag,
                                      progress: report)
            }
            let text = try String(contentsOfFile: path(BundleLayout.mediaPlaylist(inFolder: "iframes")), encoding: .utf8)
            guard var playlist = PlaylistParser.parse(text, options: .strict).playlist?.media else {
                throw MediaError(.packaging, url: path(BundleLayout.mediaPlaylist(inFolder: "iframes")), message: "FFmpeg's I-frame segment playlist does not parse")
            }
            playlist.iFramesOnly = true
            playlist.version = 7
            try PlaylistWriter.write(playlist).write(toFile: path(BundleLayout.iFramePlaylist), atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(atPath: path(BundleLayout.mediaPlaylist(inFolder: "iframes")))
            iFrameRelative = BundleLayout.iFramePlaylist
            advance()
        }

        // Image playlist and WebVTT sprites.
        var tiles: ThumbnailTiles.Output?
        if options.makesImagePlaylist, video != nil {
            tiles = try await ThumbnailTiles.make(asset: asset, duration: duration, options: options, directory: path("images"))
            advance()
        }

        let result = try await MultivariantBuilder(
            directory: directory, video: video, audios: audios, subtitles: subtitles,
            videoRelatives: videoOutputs.map { ($0.relative, $0.size, $0.frameRate) },
            audioRelatives: audioRelatives, subtitleRelatives: subtitleRelatives,
            iFrameRelative: iFrameRelative, tiles: tiles, pool: pool).build()
        progress(1)
        return PackagingResult(directory: directory, multivariantPath: result.path, multivariant: result.playlist,
                               renditions: renditions, warnings: result.warnings)
    }
}
