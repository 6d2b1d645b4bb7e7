import CFFmpeg
import Foundation
import HLS

/// Writes one stream of a source as a CMAF (fMP4) HLS media playlist with libavformat's HLS
/// muxer: by copying packets, copying only keyframes (for I-frame playlists), or through the
/// export encoders. Runs on one pool thread.
///
/// Every rendition presents its first sample at time zero of the asset, so renditions line
/// up in any player: timestamps are never shifted to make decode times non-negative
/// (`avoid_negative_ts` off, which would move each stream by its own B-frame delay or AAC
/// priming). The MP4 muxer writes a one-entry edit list instead — media time = the first
/// composition time for video with B-frames, the priming length for AAC — which browsers'
/// MSE parsers and FFmpeg both apply. (Negative composition offsets would need no edit list,
/// but FFmpeg's demuxer reads them two frames late.)
enum RenditionSegmenter {
    /// Muxer options for a VOD fMP4 playlist in `directory`.
    static func options(directory: String, segmentDuration: Double, singleFramesSegments: Bool = false) -> [String: String] {
        [
            "avoid_negative_ts": "disabled",
            "hls_segment_type": "fmp4",
            "hls_time": singleFramesSegments ? "0.001" : String(segmentDuration),
            "hls_playlist_type": "vod",
            "hls_list_size": "0",
            "hls_segment_filename": (directory as NSString).appendingPathComponent(BundleLayout.segmentPattern),
            "hls_fmp4_init_filename": BundleLayout.initSection,
            "hls_flags": "independent_segments",
        ]
    }

    /// Copies stream `index` of `source` into `directory/index.m3u8`. With `keyframesOnly`
    /// every keyframe becomes its own segment (an I-frame rendition).
    static func copy(
        source: AssetSource, streamIndex index: Int, directory: String, segmentDuration: Double,
        keyframesOnly: Bool = false, flag: CancellationFlag, progress: (Double) -> Void = { _ in }
    ) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let playlist = (directory as NSString).appendingPathComponent(BundleLayout.mediaPlaylistName)
        let input = try FormatInput(source: source, flag: flag)
        guard index < input.streams.count else {
            throw MediaError(.packaging, url: input.name, message: "no stream #\(index)")
        }
        let stream = input.streams[index]
        let output = try OutputFile(path: playlist, format: "hls", flag: flag)
        let outputStream = try output.addStream(parameters: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
        if stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_HEVC {
            outputStream.pointee.codecpar.pointee.codec_tag = fourCC("hvc1")
        }
        outputStream.pointee.avg_frame_rate = stream.pointee.avg_frame_rate
        outputStream.pointee.r_frame_rate = stream.pointee.r_frame_rate
        try output.writeHeader(
            options: options(
                directory: directory, segmentDuration: segmentDuration,
                singleFramesSegments: keyframesOnly))
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        // Asset time zero is the container's start, so all renditions stay in step.
        let formatStart = input.formatContext.pointee.start_time
        let start =
            formatStart == LibAV.noPTS
            ? 0
            : av_rescale_q(formatStart, AVRational(num: 1, den: cff_time_base()), stream.pointee.time_base)
        let formatDuration = input.formatContext.pointee.duration
        let total =
            stream.pointee.duration != LibAV.noPTS
            ? stream.pointee.duration
            : formatDuration != LibAV.noPTS ? av_rescale_q(formatDuration, AVRational(num: 1, den: cff_time_base()), stream.pointee.time_base) : 0
        var furthest = Int64.min
        var lastKeyframePTS: Int64?
        var pendingKeyframe: UnsafeMutablePointer<AVPacket>? = nil
        defer { av_packet_free(&pendingKeyframe) }
        var pendingPacket: UnsafeMutablePointer<AVPacket>? = nil
        defer { av_packet_free(&pendingPacket) }
        while true {
            try flag.check()
            let read = av_read_frame(input.formatContext, packet)
            if read < 0 {
                if flag.isCancelled { throw CancellationError() }
                break
            }
            defer { av_packet_unref(packet) }
            guard packet!.pointee.stream_index == Int32(index) else { continue }
            if packet!.pointee.pts != LibAV.noPTS { packet!.pointee.pts -= start }
            if packet!.pointee.dts != LibAV.noPTS { packet!.pointee.dts -= start }
            packet!.pointee.pos = -1
            // Decode order (B-frames) is not presentation order: report the furthest point so far.
            if total > 0, packet!.pointee.pts != LibAV.noPTS, packet!.pointee.pts > furthest {
                furthest = packet!.pointee.pts
                progress(min(1, max(0, Double(furthest) / Double(total))))
            }
            if keyframesOnly {
                guard packet!.pointee.flags & AV_PKT_FLAG_KEY != 0 else { continue }
                // Each keyframe lasts until the next one, so segment durations are the gaps.
                if let held = pendingKeyframe, let last = lastKeyframePTS {
                    held.pointee.duration = max(1, packet!.pointee.pts - last)
                    try output.write(held, stream: 0, timeBase: stream.pointee.time_base)
                }
                if pendingKeyframe == nil { pendingKeyframe = av_packet_alloc() }
                av_packet_unref(pendingKeyframe)
                av_packet_ref(pendingKeyframe, packet)
                lastKeyframePTS = packet!.pointee.pts
                continue
            }
            // Each packet lasts until the next one begins (decode order): a variable frame rate
            // recording's packets carry no duration of their own, and the HLS muxer would time
            // its segments by the nominal rate (a 5 s screen recording listed as 2.1 s).
            if let held = pendingPacket {
                if held.pointee.dts != LibAV.noPTS, packet!.pointee.dts != LibAV.noPTS, packet!.pointee.dts > held.pointee.dts {
                    held.pointee.duration = packet!.pointee.dts - held.pointee.dts
                }
                try output.write(held, stream: 0, timeBase: stream.pointee.time_base)
                av_packet_unref(held)
            } else {
                pendingPacket = av_packet_alloc()
            }
            av_packet_ref(pendingPacket, packet)
        }
        if let held = pendingPacket, held.pointee.size > 0 {
            try output.write(held, stream: 0, timeBase: stream.pointee.time_base)
        }
        if let held = pendingKeyframe, held.pointee.size > 0 {
            let end =
                stream.pointee.duration != LibAV.noPTS
                ? stream.pointee.duration
                : formatDuration != LibAV.noPTS
                    ? av_rescale_q(formatDuration, AVRational(num: 1, den: cff_time_base()), stream.pointee.time_base)
                    : held.pointee.pts + 1
            held.pointee.duration = max(1, end - held.pointee.pts)
            try output.write(held, stream: 0, timeBase: stream.pointee.time_base)
        }
        try output.finish()
        if !keyframesOnly { try foldRuntSegment(playlist, segmentDuration: segmentDuration) }
        return playlist
    }

    /// Encodes the video track (H.264 at `size`) into `directory/index.m3u8`.
    static func encodeVideo(
        asset: MediaAsset, track: AssetTrack, duration: MediaTime, size: PixelSize, frameDuration: MediaTime, directory: String,
        segmentDuration: Double, flag: CancellationFlag, progress: @escaping (Double) -> Void = { _ in }
    ) throws -> String {
        try encodeVideo(
            asset: asset, track: track, duration: duration, rungs: [(size, directory)], frameDuration: frameDuration,
            segmentDuration: segmentDuration, flag: flag, progress: progress)[0]
    }

    /// Encodes the video track once per rung (H.264 at each size, into each directory's
    /// `index.m3u8`), decoding the source once for all of them; returns the playlists.
    static func encodeVideo(
        asset: MediaAsset, track: AssetTrack, duration: MediaTime, rungs: [(size: PixelSize, directory: String)],
        frameDuration: MediaTime, segmentDuration: Double, flag: CancellationFlag, progress: @escaping (Double) -> Void = { _ in }
    ) throws -> [String] {
        var outputs: [(playlist: String, output: OutputFile, encoder: VideoEncoder)] = []
        for (size, directory) in rungs {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let playlist = (directory as NSString).appendingPathComponent(BundleLayout.mediaPlaylistName)
            let output = try OutputFile(path: playlist, format: "hls", flag: flag)
            let encoder = try VideoEncoder(output: output, size: size, frameDuration: frameDuration, flag: flag)
            try output.writeHeader(options: options(directory: directory, segmentDuration: segmentDuration))
            outputs.append((playlist, output, encoder))
        }
        outputs.first?.encoder.onPosition = { progress(min(1, $0 / max(duration.seconds, 0.001))) }
        try VideoEncoder.append(wholeTrack(asset, track, duration), to: outputs.map(\.encoder))
        for rung in outputs {
            try rung.encoder.finish()
            try rung.output.finish()
            try foldRuntSegment(rung.playlist, segmentDuration: segmentDuration)
        }
        return outputs.map(\.playlist)
    }

    /// Encodes an audio track as AAC into `directory/index.m3u8`, keeping its channels
    /// (surround stays surround, up to 7.1).
    static func encodeAudio(
        asset: MediaAsset, track: AssetTrack, duration: MediaTime, directory: String, segmentDuration: Double,
        flag: CancellationFlag, progress: @escaping (Double) -> Void = { _ in }
    ) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let playlist = (directory as NSString).appendingPathComponent(BundleLayout.mediaPlaylistName)
        let output = try OutputFile(path: playlist, format: "hls", flag: flag)
        let encoder = try AudioEncoder(output: output, channels: track.channelCount ?? 2, flag: flag)
        encoder.onPosition = { progress(min(1, $0 / max(duration.seconds, 0.001))) }
        try output.writeHeader(options: options(directory: directory, segmentDuration: segmentDuration))
        let whole = wholeTrack(asset, track, duration)
        encoder.mix([[whole]])
        // Silence after a track that ends early, up to the asset's end: at most 10 s past what
        // the track says it holds, so a header that claims hours more costs nothing.
        let trackEnd = track.timeRange.duration.isNumeric ? track.timeRange.end : whole.targetRange.end
        try encoder.advance(to: min(whole.targetRange.end, trackEnd + MediaTime(seconds: 10, preferredTimescale: 1000)))
        try encoder.finish()
        try output.finish()
        try foldRuntSegment(playlist, segmentDuration: segmentDuration)
        return playlist
    }

    /// Leaves no degenerate last segment (see `TrailingSegment`).
    private static func foldRuntSegment(_ playlist: String, segmentDuration: Double) throws {
        try TrailingSegment.fold(playlistAt: playlist, shorterThan: TrailingSegment.threshold(segmentDuration: segmentDuration))
    }

    /// The track over the asset's whole duration, so every rendition covers the same time: a
    /// picture that starts late or ends early is padded, an audio track that ends early is
    /// followed by silence.
    private static func wholeTrack(_ asset: MediaAsset, _ track: AssetTrack, _ duration: MediaTime) -> CompositionTrackSegment {
        let end = duration.isNumeric && duration > .zero ? duration : track.timeRange.end
        let range = MediaTimeRange(start: .zero, duration: end)
        return CompositionTrackSegment(asset: asset, sourceTrack: track, sourceRange: range, targetRange: range)
    }

    static func fourCC(_ text: String) -> UInt32 {
        let bytes = Array(text.utf8)
        return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }
}
