import CFFmpeg

/// Decodes one stream of an open input frame by frame, with seeking and a keyframe-only fast
/// path (for video). Lives on one pool thread. Without a stream index it picks the main video
/// stream, skipping cover art.
///
/// Corrupt packets are skipped (FFmpeg conceals what it can); only a long run of failures, a
/// read error that is not the end of the file, or cancellation end decoding with an error.
final class FrameReader {
    let input: FormatInput
    let stream: UnsafeMutablePointer<AVStream>
    let streamIndex: Int32
    let timeBase: AVRational
    /// The container's start time in stream units; asset time zero.
    let startOffset: Int64
    /// One frame's duration in stream units (from the average frame rate), at least 1.
    let nominalFrameDuration: Int64
    /// Keyframe timestamps from the container's index (sorted), empty when there is none.
    let keyframes: [Int64]
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    /// The opened decoder (for its output format).
    private(set) var codecContext: UnsafeMutablePointer<AVCodecContext>!
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var inputEnded = false
    /// Where the next decoded frame starts when the file gives it no time (WMA and WMV in
    /// ASF, some AVI): after the frame before it.
    private var nextTimestamp: Int64?
    private var decoderDrained = false

    init(input: FormatInput, streamIndex requested: Int? = nil, threads: Int32 = 2) throws {
        self.input = input
        let context = input.formatContext
        var decoder: UnsafePointer<AVCodec>? = nil
        var best = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        if let requested {
            guard requested >= 0, requested < Int(context.pointee.nb_streams) else {
                throw MediaError(.unsupported, url: input.name, message: "no stream #\(requested)")
            }
            best = Int32(requested)
            decoder = avcodec_find_decoder(context.pointee.streams[requested]!.pointee.codecpar.pointee.codec_id)
        }
        var chosen: UnsafeMutablePointer<AVStream>? = best >= 0 ? context.pointee.streams[Int(best)] : nil
        if requested == nil, let candidate = chosen, candidate.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
            chosen = input.streams.first {
                $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                    && $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
            }
            decoder = chosen.flatMap { avcodec_find_decoder($0.pointee.codecpar.pointee.codec_id) }
        }
        guard let stream = chosen else {
            throw MediaError(.noVideoTrack, url: input.name, message: "the media has no video track")
        }
        guard let decoder else {
            let name = LibAV.string(avcodec_get_name(stream.pointee.codecpar.pointee.codec_id)) ?? "unknown"
            throw MediaError(.unsupported, url: input.name, message: "no decoder for codec \(name)")
        }
        self.stream = stream
        streamIndex = stream.pointee.index
        timeBase = stream.pointee.time_base
        let formatStart = context.pointee.start_time
        startOffset =
            formatStart == LibAV.noPTS
            ? 0 : av_rescale_q(formatStart, AVRational(num: 1, den: cff_time_base()), timeBase)
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        nominalFrameDuration =
            rate.num > 0 && rate.den > 0
            ? max(1, av_rescale_q(1, AVRational(num: rate.den, den: rate.num), timeBase)) : 1
        var keyframes: [Int64] = []
        let count = avformat_index_get_entries_count(stream)
        keyframes.reserveCapacity(Int(count))
        for index in 0..<count {
            if let entry = avformat_index_get_entry(stream, index), entry.pointee.flags & AVINDEX_KEYFRAME != 0 {
                keyframes.append(entry.pointee.timestamp)
            }
        }
        keyframes.sort()
        self.keyframes = keyframes

        codec = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        guard let codec, packet != nil else {
            throw MediaError(.decode, url: input.name, message: "out of memory")
        }
        var status = avcodec_parameters_to_context(codec, stream.pointee.codecpar)
        if status < 0 { throw LibAV.error(.decode, input.name, "cannot configure decoder", status) }
        codec.pointee.pkt_timebase = timeBase
        self.codecContext = codec
        codec.pointee.thread_count = threads
        status = avcodec_open2(codec, decoder, nil)
        if status < 0 { throw LibAV.error(.decode, input.name, "cannot open decoder", status) }
    }

    deinit {
        avcodec_free_context(&codec)
        av_packet_free(&packet)
    }

    /// The presentation timestamp of a decoded frame in stream units.
    static func timestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Int64 {
        let best = frame.pointee.best_effort_timestamp
        return best != LibAV.noPTS ? best : frame.pointee.pts
    }

    /// The last indexed keyframe at or before `timestamp`.
    func keyframe(atOrBefore timestamp: Int64) -> Int64? {
        var low = 0
        var high = keyframes.count
        while low < high {
            let mid = (low + high) / 2
            if keyframes[mid] <= timestamp { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? keyframes[low - 1] : nil
    }

    /// The indexed keyframe in `lower...upper` nearest to `target`.
    func keyframe(nearest target: Int64, in lower: Int64, _ upper: Int64) -> Int64? {
        guard !keyframes.isEmpty, lower <= upper else { return nil }
        var low = 0
        var high = keyframes.count
        while low < high {
            let mid = (low + high) / 2
            if keyframes[mid] < target { low = mid + 1 } else { high = mid }
        }
        let candidates = [low - 1, low].filter { keyframes.indices.contains($0) }.map { keyframes[$0] }
            .filter { $0 >= lower && $0 <= upper }
        return candidates.min { abs($0 - target) < abs($1 - target) }
    }

    /// A timestamp that a backward seek resolves to the indexed keyframe `keyframe`, whether
    /// the demuxer compares decode or presentation times: halfway to the next keyframe.
    func seekPoint(forKeyframe keyframe: Int64) -> Int64 {
        guard let next = keyframes.first(where: { $0 > keyframe }) else { return keyframe + 8 * nominalFrameDuration }
        return keyframe + (next - keyframe) / 2
    }

    /// Seeks to the keyframe at or before `timestamp` and resets the decoder.
    func seek(to timestamp: Int64) throws {
        try input.flag.check()
        var status = av_seek_frame(input.formatContext, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        if status < 0 {
            // Some demuxers (HLS) only seek on the whole presentation's timeline.
            let global = av_rescale_q(timestamp, timeBase, AVRational(num: 1, den: cff_time_base()))
            status = avformat_seek_file(input.formatContext, -1, Int64.min, global, global, 0)
        }
        if status < 0 {
            throw input.failure(.seek, "cannot seek", status)
        }
        avcodec_flush_buffers(codec)
        inputEnded = false
        decoderDrained = false
        nextTimestamp = nil
    }

    /// Gives a frame without a time the one that follows the frame before it (the stream's
    /// start for the first), so every consumer sees times in order, never `AV_NOPTS_VALUE`.
    private func stampIfUntimed(_ frame: UnsafeMutablePointer<AVFrame>) {
        var stamp = Self.timestamp(of: frame)
        if stamp == LibAV.noPTS {
            stamp = nextTimestamp ?? (stream.pointee.start_time != LibAV.noPTS ? stream.pointee.start_time : 0)
            frame.pointee.best_effort_timestamp = stamp
        }
        let samples = Int64(frame.pointee.nb_samples)
        let rate = frame.pointee.sample_rate
        let step = samples > 0 && rate > 0 ? av_rescale_q(samples, AVRational(num: 1, den: rate), timeBase) : nominalFrameDuration
        nextTimestamp = stamp.addingReportingOverflow(max(1, step)).partialValue
    }

    /// Decodes the next frame into `frame`; false at the end of the stream.
    func decodeNext(into frame: UnsafeMutablePointer<AVFrame>) throws -> Bool {
        var failures = 0
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                stampIfUntimed(frame)
                return true
            }
            if received == LibAV.eof {
                decoderDrained = true
                return false
            }
            if received != LibAV.eagain {
                failures += 1
                if failures > 64 { throw input.failure(.decode, "cannot decode video", received) }
                continue
            }
            try input.flag.check()
            if inputEnded {
                // EAGAIN after the drain packet: nothing more will come.
                return false
            }
            let read = av_read_frame(input.formatContext, packet)
            if read < 0 {
                if input.flag.isCancelled { throw CancellationError() }
                // End of file, or a read error in a damaged file: decode what is buffered.
                inputEnded = true
                avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet!.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0 && sent != LibAV.eagain {
                failures += 1
                if failures > 64 { throw input.failure(.decode, "cannot decode video", sent) }
            }
        }
    }

    /// Decodes only the next keyframe packet of the stream (after a seek): sends it alone,
    /// drains the decoder for its picture, then resets the decoder. False when the next
    /// packet is not a keyframe or yields no picture.
    func decodeKeyframe(into frame: UnsafeMutablePointer<AVFrame>) throws -> Bool {
        while true {
            try input.flag.check()
            let read = av_read_frame(input.formatContext, packet)
            if read < 0 {
                if input.flag.isCancelled { throw CancellationError() }
                return false
            }
            defer { av_packet_unref(packet) }
            guard packet!.pointee.stream_index == streamIndex else { continue }
            guard packet!.pointee.flags & AV_PKT_FLAG_KEY != 0 else { return false }
            defer {
                avcodec_flush_buffers(codec)
                decoderDrained = false
            }
            guard avcodec_send_packet(codec, packet) >= 0 else { return false }
            avcodec_send_packet(codec, nil)
            while true {
                let received = avcodec_receive_frame(codec, frame)
                if received == 0 { return true }
                if received == LibAV.eof || received == LibAV.eagain { return false }
            }
        }
    }
}
