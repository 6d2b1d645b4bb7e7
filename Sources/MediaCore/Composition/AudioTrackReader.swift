import CFFmpeg

/// One composition audio track as a stream of samples on the composition's timeline: each
/// segment decoded from its source, resampled and remixed to the output layout at 48 kHz,
/// trimmed to exactly the samples its time range covers, with silence for empty segments and
/// after the track ends. The export mixes several of these. Lives on one pool thread.
final class AudioTrackReader {
    private let segments: [CompositionTrackSegment]
    private let flag: CancellationFlag
    private let channels: Int32
    private var layout = AVChannelLayout()
    private let rate: Int64 = Int64(ReencodeExport.sampleRate)
    /// Decoded samples not read yet.
    private var fifo: OpaquePointer?
    private var segmentIndex = -1
    /// Samples the current segment still owes (decoded or silence).
    private var remaining: Int64 = 0
    private var source: SegmentDecoder?

    init(segments: [CompositionTrackSegment], layout: AVChannelLayout, flag: CancellationFlag) {
        self.segments = segments.sorted { $0.targetRange.start < $1.targetRange.start }
        self.flag = flag
        var copy = layout
        av_channel_layout_copy(&self.layout, &copy)
        channels = layout.nb_channels
        fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, channels, 4096)
    }

    deinit {
        if fifo != nil { av_audio_fifo_free(fifo) }
        av_channel_layout_uninit(&layout)
    }

    /// Writes the next `count` samples of the track into `planes` (one per channel).
    func read(_ count: Int32, into planes: [UnsafeMutablePointer<Float>]) throws {
        var filled: Int32 = 0
        while filled < count {
            try flag.check()
            if av_audio_fifo_size(fifo) > 0 {
                let take = min(count - filled, av_audio_fifo_size(fifo))
                var targets: [UnsafeMutableRawPointer?] = planes.map { UnsafeMutableRawPointer($0 + Int(filled)) }
                av_audio_fifo_read(fifo, &targets, take)
                filled += take
                continue
            }
            if remaining > 0, let decoder = source {
                // Decode more of the current segment; what it cannot give becomes silence.
                let got = try decoder.decode(upTo: remaining, into: fifo!)
                remaining -= got
                if got == 0 {
                    try queueSilence(remaining)
                    remaining = 0
                }
                continue
            }
            if remaining > 0 {
                try queueSilence(remaining)
                remaining = 0
                continue
            }
            // Next segment, or silence once the track has ended.
            segmentIndex += 1
            source = nil
            guard segmentIndex < segments.count else {
                for plane in planes { (plane + Int(filled)).update(repeating: 0, count: Int(count - filled)) }
                return
            }
            let segment = segments[segmentIndex]
            let base = AVRational(num: 1, den: Int32(rate))
            remaining = LibAV.timestamp(segment.targetRange.end, base) - LibAV.timestamp(segment.targetRange.start, base)
            if let asset = segment.asset, let track = segment.sourceTrack {
                source = try SegmentDecoder(asset: asset, track: track, sourceStart: segment.sourceRange.start, layout: layout, flag: flag)
            }
        }
    }

    private func queueSilence(_ count: Int64) throws {
        guard count > 0 else { return }
        let zeros = [Float](repeating: 0, count: Int(min(count, 4096)))
        var left = count
        try zeros.withUnsafeBytes { raw in
            while left > 0 {
                let n = Int32(min(left, 4096))
                var planes = [UnsafeMutableRawPointer?](repeating: UnsafeMutableRawPointer(mutating: raw.baseAddress), count: Int(channels))
                if av_audio_fifo_write(fifo, &planes, n) < n { throw MediaError(.export, url: "audio", message: "out of memory") }
                left -= Int64(n)
            }
        }
    }
}

/// Decodes one segment's source audio from its start, resampled to the output layout at
/// 48 kHz, dropping what lies before the cut.
private final class SegmentDecoder {
    let reader: FrameReader
    let input: FormatInput
    private var resampler: OpaquePointer?
    private var decoded: UnsafeMutablePointer<AVFrame>?
    private var buffer: [UnsafeMutablePointer<UInt8>?]
    private var capacity: Int32 = 0
    private let channels: Int32
    private let skipUntil: Int64
    private var finished = false
    /// Where the next frame starts when it carries no time of its own (48 kHz samples).
    private var nextStart: Int64 = 0

    init(asset: MediaAsset, track: AssetTrack, sourceStart: MediaTime, layout: AVChannelLayout, flag: CancellationFlag) throws {
        input = try FormatInput(source: asset.source, flag: flag)
        reader = try FrameReader(input: input, streamIndex: track.id, threads: 1)
        let decoder = reader.codecContext!
        var layout = layout
        channels = layout.nb_channels
        buffer = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: Int(layout.nb_channels))
        var status = swr_alloc_set_opts2(
            &resampler, &layout, AV_SAMPLE_FMT_FLTP, ReencodeExport.sampleRate,
            &decoder.pointee.ch_layout, decoder.pointee.sample_fmt, decoder.pointee.sample_rate, 0, nil)
        if status >= 0 { status = swr_init(resampler) }
        if status < 0 { throw LibAV.error(.export, input.name, "cannot resample audio", status) }
        // Asset time zero is the container's start (a transport stream's first time is rarely 0).
        let start = LibAV.timestamp(sourceStart, reader.timeBase) + reader.startOffset
        skipUntil = av_rescale_q(start, reader.timeBase, AVRational(num: 1, den: ReencodeExport.sampleRate))
        try reader.seek(to: start)
        decoded = av_frame_alloc()
    }

    deinit {
        swr_free(&resampler)
        av_frame_free(&decoded)
        if buffer[0] != nil { av_freep(&buffer[0]) }
    }

    /// Decodes one frame's worth into `fifo`, at most `limit` samples; 0 when the source has
    /// nothing more.
    func decode(upTo limit: Int64, into fifo: OpaquePointer) throws -> Int64 {
        while !finished {
            guard try reader.decodeNext(into: decoded!) else {
                finished = true
                break
            }
            defer { av_frame_unref(decoded) }
            // A frame without a time (WMA in ASF often has none) follows the one before it.
            let pts = FrameReader.timestamp(of: decoded!)
            let frameStart =
                pts == LibAV.noPTS ? nextStart : av_rescale_q(pts, reader.timeBase, AVRational(num: 1, den: ReencodeExport.sampleRate))
            let outCount = swr_get_out_samples(resampler, decoded!.pointee.nb_samples)
            if outCount > capacity {
                if buffer[0] != nil { av_freep(&buffer[0]) }
                av_samples_alloc(&buffer, nil, channels, outCount, AV_SAMPLE_FMT_FLTP, 0)
                capacity = outCount
            }
            let converted = withUnsafeMutablePointer(to: &decoded!.pointee.data) { data in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                    swr_convert(resampler, &buffer, outCount, data, decoded!.pointee.nb_samples)
                }
            }
            guard converted > 0 else { continue }
            nextStart = frameStart.addingReportingOverflow(Int64(converted)).partialValue
            let behind = skipUntil.subtractingReportingOverflow(frameStart)
            let skip = Int32(behind.overflow ? (frameStart < skipUntil ? Int64(converted) : 0) : max(0, min(Int64(converted), behind.partialValue)))
            let take = Int32(min(Int64(converted - skip), limit))
            guard take > 0 else { continue }
            var planes: [UnsafeMutableRawPointer?] = buffer.map { UnsafeMutableRawPointer($0! + Int(skip) * 4) }
            if av_audio_fifo_write(fifo, &planes, take) < take { throw MediaError(.export, url: input.name, message: "out of memory") }
            return Int64(take)
        }
        return 0
    }
}
