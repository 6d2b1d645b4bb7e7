import CFFmpeg

/// Whether a video segment's cuts fall on keyframes (so its packets can be copied).
enum KeyframeCheck {
    /// A description of the problem, or `nil` when the segment starts on a keyframe and ends on
    /// one (or at the end of its source).
    static func problem(with segment: CompositionTrackSegment, flag: CancellationFlag) throws -> String? {
        guard let asset = segment.asset, let track = segment.sourceTrack else { return nil }
        let input = try FormatInput(source: asset.source, flag: flag)
        let stream = input.formatContext.pointee.streams[track.id]!
        let base = stream.pointee.time_base
        let rate = stream.pointee.avg_frame_rate
        let halfFrame = rate.num > 0 ? av_rescale_q(1, AVRational(num: rate.den, den: rate.num * 2), base) : 1
        let start = LibAV.timestamp(segment.sourceRange.start, base)
        let end = LibAV.timestamp(segment.sourceRange.end, base)
        let trackEnd = LibAV.timestamp(track.timeRange.end, base)
        if let found = try keyframe(input, Int32(track.id), atOrBefore: start + halfFrame), abs(found - start) > halfFrame {
            return "cut at \(segment.sourceRange.start.seconds) s of \(input.name) is not on a keyframe (nearest before: \(LibAV.time(found, base).seconds) s)"
        }
        if end < trackEnd - halfFrame {
            if let found = try keyframe(input, Int32(track.id), atOrBefore: end + halfFrame), abs(found - end) > halfFrame {
                return "cut at \(segment.sourceRange.end.seconds) s of \(input.name) is not on a keyframe"
            }
        }
        return nil
    }

    /// The presentation time of the keyframe a backward seek to `timestamp` lands on.
    private static func keyframe(_ input: FormatInput, _ index: Int32, atOrBefore timestamp: Int64) throws -> Int64? {
        guard av_seek_frame(input.formatContext, index, timestamp, AVSEEK_FLAG_BACKWARD) >= 0 else { return nil }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        while av_read_frame(input.formatContext, packet) >= 0 {
            defer { av_packet_unref(packet) }
            try input.flag.check()
            if packet!.pointee.stream_index == index {
                return packet!.pointee.pts == LibAV.noPTS ? packet!.pointee.dts : packet!.pointee.pts
            }
        }
        return nil
    }
}
