import CFFmpeg

/// Encodes a composition's audio track as AAC at 48 kHz — stereo by default, or up to 7.1
/// when asked (the packager keeps a surround track surround): decodes each segment,
/// resamples and remixes, trims to the segment's exact sample count and pads with silence.
final class AudioEncoder {
    let output: OutputFile
    let flag: CancellationFlag
    let streamIndex: Int32
    /// Channels written: the encoder's own layout for the requested count.
    let channels: Int
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var fifo: OpaquePointer?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var samplesWritten: Int64 = 0
    private var samplesEncoded: Int64 = 0
    private var layout = AVChannelLayout()
    /// Called as samples are queued, with the output position in seconds.
    var onPosition: ((Double) -> Void)?

    /// `channels` is clamped to 1…8 and rounded down to a layout the AAC encoder takes.
    init(output: OutputFile, channels requested: Int = 2, flag: CancellationFlag) throws {
        self.output = output
        self.flag = flag
        guard let encoder = avcodec_find_encoder(AV_CODEC_ID_AAC) else {
            throw MediaError(.export, url: output.path, message: "no AAC encoder in this FFmpeg")
        }
        codec = avcodec_alloc_context3(encoder)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let codec else { throw MediaError(.export, url: output.path, message: "out of memory") }
        Self.chooseLayout(&layout, channels: requested, offered: encoder.pointee.ch_layouts)
        channels = Int(layout.nb_channels)
        codec.pointee.sample_rate = ReencodeExport.sampleRate
        codec.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        av_channel_layout_copy(&codec.pointee.ch_layout, &layout)
        // 64 kb/s a channel: 128 kb/s stereo, 384 kb/s 5.1.
        codec.pointee.bit_rate = Int64(64_000 * channels)
        codec.pointee.time_base = AVRational(num: 1, den: ReencodeExport.sampleRate)
        if output.needsGlobalHeader { codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let status = avcodec_open2(codec, encoder, nil)
        if status < 0 { throw LibAV.error(.export, output.path, "cannot open AAC encoder", status) }
        let parameters = avcodec_parameters_alloc()
        defer { var p = parameters; avcodec_parameters_free(&p) }
        avcodec_parameters_from_context(parameters, codec)
        streamIndex = try output.addStream(parameters: parameters!, timeBase: codec.pointee.time_base).pointee.index
        fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, Int32(channels), 4096)
    }

    /// The largest layout of `offered` (a list ending in an empty layout) with no more than
    /// `channels` channels. FFmpeg 5.1's AAC encoder lists none and takes any count but 7,
    /// mapping channels by count; then the default layout for the count is used.
    static func chooseLayout(_ layout: inout AVChannelLayout, channels: Int, offered: UnsafePointer<AVChannelLayout>?) {
        let wanted = Int32(min(8, max(1, channels)))
        var best: UnsafePointer<AVChannelLayout>?
        if var candidate = offered {
            while candidate.pointee.nb_channels > 0 {
                if candidate.pointee.nb_channels <= wanted, candidate.pointee.nb_channels > (best?.pointee.nb_channels ?? 0) {
                    best = candidate
                }
                candidate += 1
            }
        }
        if let best { av_channel_layout_copy(&layout, best) } else { av_channel_layout_default(&layout, wanted == 7 ? 6 : wanted) }
    }

    deinit {
        avcodec_free_context(&codec)
        av_frame_free(&frame)
        av_packet_free(&packet)
        if fifo != nil { av_audio_fifo_free(fifo) }
        av_channel_layout_uninit(&layout)
    }

    func append(_ segment: CompositionTrackSegment) throws {
        let rate = Int64(ReencodeExport.sampleRate)
        let wanted = LibAV.timestamp(segment.targetRange.duration, AVRational(num: 1, den: Int32(rate)))
        let targetStart = LibAV.timestamp(segment.targetRange.start, AVRational(num: 1, den: Int32(rate)))
        // Keep the output in step with the composition's timeline.
        if targetStart > samplesWritten { try silence(targetStart - samplesWritten) }
        var produced: Int64 = 0
        if let asset = segment.asset, let track = segment.sourceTrack {
            let input = try FormatInput(source: asset.source, flag: flag)
            let reader = try FrameReader(input: input, streamIndex: track.id, threads: 1)
            let decoder = reader.codecContext!
            var resampler: OpaquePointer? = nil
            var status = swr_alloc_set_opts2(&resampler, &layout, AV_SAMPLE_FMT_FLTP, ReencodeExport.sampleRate,
                                             &decoder.pointee.ch_layout, decoder.pointee.sample_fmt,
                                             decoder.pointee.sample_rate, 0, nil)
            if status >= 0 { status = swr_init(resampler) }
            defer { swr_free(&resampler) }
            if status < 0 { throw LibAV.error(.export, input.name, "cannot resample audio", status) }
            let base = reader.timeBase
            let start = LibAV.timestamp(segment.sourceRange.start, base)
            try reader.seek(to: start)
            var decoded = av_frame_alloc()
            defer { av_frame_free(&decoded) }
            var buffer = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: channels)
            var capacity: Int32 = 0
            defer { if buffer[0] != nil { av_freep(&buffer[0]) } }
            while produced < wanted, try reader.decodeNext(into: decoded!) {
                defer { av_frame_unref(decoded) }
                let pts = FrameReader.timestamp(of: decoded!)
                let frameStart = av_rescale_q(pts, base, AVRational(num: 1, den: Int32(rate)))
                let segmentStart = av_rescale_q(start, base, AVRational(num: 1, den: Int32(rate)))
                let outCount = swr_get_out_samples(resampler, decoded!.pointee.nb_samples)
                if outCount > capacity {
                    if buffer[0] != nil { av_freep(&buffer[0]) }
                    av_samples_alloc(&buffer, nil, Int32(channels), outCount, AV_SAMPLE_FMT_FLTP, 0)
                    capacity = outCount
                }
                let converted = withUnsafeMutablePointer(to: &decoded!.pointee.data) { data in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                        swr_convert(resampler, &buffer, outCount, data, decoded!.pointee.nb_samples)
                    }
                }
                guard converted > 0 else { continue }
                // Drop what lies before the cut; keep at most what the segment still needs.
                let skip = Int32(max(0, min(Int64(converted), segmentStart - frameStart)))
                let take = Int32(min(Int64(converted - skip), wanted - produced))
                guard take > 0 else { continue }
                var planes: [UnsafeMutableRawPointer?] = buffer.map { UnsafeMutableRawPointer($0! + Int(skip) * 4) }
                av_audio_fifo_write(fifo, &planes, take)
                produced += Int64(take)
                samplesWritten += Int64(take)
                onPosition?(Double(samplesWritten) / Double(rate))
                try drain(final: false)
            }
        }
        if produced < wanted { try silence(wanted - produced) }
    }

    private func silence(_ count: Int64) throws {
        var remaining = count
        let chunk: Int64 = 4096
        var zeros = [Float](repeating: 0, count: Int(chunk))
        while remaining > 0 {
            let n = Int32(min(chunk, remaining))
            zeros.withUnsafeMutableBytes { raw in
                var planes = [UnsafeMutableRawPointer?](repeating: raw.baseAddress, count: channels)
                _ = av_audio_fifo_write(fifo, &planes, n)
            }
            remaining -= Int64(n)
            samplesWritten += Int64(n)
            try drain(final: false)
        }
    }

    private func drain(final: Bool) throws {
        let frameSize = codec!.pointee.frame_size > 0 ? codec!.pointee.frame_size : 1024
        while av_audio_fifo_size(fifo) >= frameSize || (final && av_audio_fifo_size(fifo) > 0) {
            let count = min(frameSize, av_audio_fifo_size(fifo))
            av_frame_unref(frame)
            frame!.pointee.nb_samples = count
            frame!.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            frame!.pointee.sample_rate = ReencodeExport.sampleRate
            av_channel_layout_copy(&frame!.pointee.ch_layout, &layout)
            var status = av_frame_get_buffer(frame, 0)
            if status < 0 { throw LibAV.error(.export, output.path, "cannot allocate audio frame", status) }
            _ = withUnsafeMutablePointer(to: &frame!.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { data in
                    av_audio_fifo_read(fifo, data, count)
                }
            }
            frame!.pointee.pts = samplesEncoded
            samplesEncoded += Int64(count)
            status = avcodec_send_frame(codec, frame)
            if status < 0 { throw LibAV.error(.export, output.path, "cannot encode audio", status) }
            try receive()
        }
    }

    private func receive() throws {
        while true {
            let status = avcodec_receive_packet(codec, packet)
            if status == LibAV.eagain || status == LibAV.eof { return }
            if status < 0 { throw LibAV.error(.export, output.path, "cannot encode audio", status) }
            try output.write(packet!, stream: streamIndex, timeBase: codec!.pointee.time_base)
            av_packet_unref(packet)
        }
    }

    func finish() throws {
        try drain(final: true)
        avcodec_send_frame(codec, nil)
        try receive()
    }
}
