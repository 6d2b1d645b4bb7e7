import CFFmpeg

/// Encodes a composition's audio as AAC at 48 kHz — stereo by default, or up to 7.1 when
/// asked (the packager keeps a surround track surround). Every audio track is read on the
/// timeline by an `AudioTrackReader` and the tracks are mixed, like an export session mixing
/// a composition's audio tracks.
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
    private var readers: [AudioTrackReader] = []
    private var volumes: [AudioMix.InputParameters?] = []
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
        defer {
            var p = parameters
            avcodec_parameters_free(&p)
        }
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

    /// The audio tracks to encode, mixed: each a composition track's segments, with the
    /// volumes an `AudioMix` gives it (full volume when none).
    func mix(_ tracks: [[CompositionTrackSegment]], volumes: [AudioMix.InputParameters?] = []) {
        readers = tracks.map { AudioTrackReader(segments: $0, layout: layout, flag: flag) }
        self.volumes = tracks.indices.map { $0 < volumes.count ? volumes[$0] : nil }
    }

    /// Encodes the mix up to `time` on the composition's timeline (silence where no track
    /// has sound), summing the tracks and keeping the sum within full scale.
    func advance(to time: MediaTime) throws {
        let target = LibAV.timestamp(time, AVRational(num: 1, den: ReencodeExport.sampleRate))
        let chunk = 1024
        let mixed = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: chunk) }
        let scratch = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: chunk) }
        defer { (mixed + scratch).forEach { $0.deallocate() } }
        while samplesWritten < target {
            try flag.check()
            let count = Int(min(Int64(chunk), target - samplesWritten))
            for plane in mixed { plane.update(repeating: 0, count: count) }
            let rate = Double(ReencodeExport.sampleRate)
            for (index, reader) in readers.enumerated() {
                try reader.read(Int32(count), into: scratch)
                if let parameters = volumes[index], !parameters.isUnity {
                    for i in 0..<count {
                        let gain = parameters.volume(at: Double(samplesWritten + Int64(i)) / rate)
                        for c in 0..<channels { mixed[c][i] += scratch[c][i] * gain }
                    }
                } else {
                    for c in 0..<channels {
                        for i in 0..<count { mixed[c][i] += scratch[c][i] }
                    }
                }
            }
            if readers.count > 1 || volumes.contains(where: { $0 != nil }) {
                for plane in mixed {
                    for i in 0..<count { plane[i] = Swift.min(1, Swift.max(-1, plane[i])) }
                }
            }
            var raw: [UnsafeMutableRawPointer?] = mixed.map { UnsafeMutableRawPointer($0) }
            if av_audio_fifo_write(fifo, &raw, Int32(count)) < Int32(count) {
                throw MediaError(.export, url: output.path, message: "out of memory")
            }
            samplesWritten += Int64(count)
            onPosition?(Double(samplesWritten) / Double(ReencodeExport.sampleRate))
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
