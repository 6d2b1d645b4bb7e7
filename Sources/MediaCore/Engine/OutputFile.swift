import CFFmpeg

/// A libavformat output file (MP4 by default) being written on one pool thread: streams,
/// header, interleaved packets, trailer. The interrupt callback honours cancellation.
final class OutputFile {
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    let path: String
    let flag: CancellationFlag
    private var headerWritten = false
    private var lastDTS: [Int32: Int64] = [:]

    init(path: String, format: String = "mp4", flag: CancellationFlag) throws {
        _ = LibAV.initialized
        self.path = path
        self.flag = flag
        var context: UnsafeMutablePointer<AVFormatContext>? = nil
        let status = avformat_alloc_output_context2(&context, nil, format, path)
        guard status >= 0, let context else { throw LibAV.error(.write, path, "cannot create output", status) }
        self.context = context
        context.pointee.interrupt_callback = AVIOInterruptCB(
            callback: { opaque in
                Unmanaged<CancellationFlag>.fromOpaque(opaque!).takeUnretainedValue().isCancelled ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(flag).toOpaque())
    }

    deinit {
        if let context {
            if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
            avformat_free_context(context)
        }
    }

    var needsGlobalHeader: Bool { context!.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    /// Adds a stream with the given codec parameters; returns it.
    func addStream(parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(context, nil) else {
            throw MediaError(.write, url: path, message: "cannot add stream")
        }
        let status = avcodec_parameters_copy(stream.pointee.codecpar, parameters)
        if status < 0 { throw LibAV.error(.write, path, "cannot copy codec parameters", status) }
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = timeBase
        return stream
    }

    /// Gives `target` the display matrix (phone rotation) of `source`, if it has one, so
    /// the MP4 muxer writes it into the track header.
    func copyDisplayMatrix(from source: UnsafeMutablePointer<AVStream>, to target: UnsafeMutablePointer<AVStream>) throws {
        var size: Int = 0
        guard let matrix = av_stream_get_side_data(source, AV_PKT_DATA_DISPLAYMATRIX, &size), size > 0 else { return }
        guard let copy = av_stream_new_side_data(target, AV_PKT_DATA_DISPLAYMATRIX, size) else {
            throw MediaError(.write, url: path, message: "cannot copy the display matrix")
        }
        copy.update(from: matrix, count: size)
    }

    func writeHeader(options: [String: String] = ["movflags": "+faststart"]) throws {
        if context!.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            let status = avio_open2(&context!.pointee.pb, path, AVIO_FLAG_WRITE, &context!.pointee.interrupt_callback, nil)
            if status < 0 { throw failure("cannot open output file", status) }
        }
        var dictionary: OpaquePointer? = nil
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        let status = avformat_write_header(context, &dictionary)
        av_dict_free(&dictionary)
        if status < 0 { throw failure("cannot write header", status) }
        headerWritten = true
    }

    /// Writes a packet whose timestamps are in `timeBase`, keeping decode times increasing.
    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int32, timeBase: AVRational) throws {
        let stream = context!.pointee.streams[Int(index)]!
        packet.pointee.stream_index = index
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        if packet.pointee.dts != LibAV.noPTS {
            if let last = lastDTS[index], packet.pointee.dts <= last { packet.pointee.dts = last + 1 }
            if packet.pointee.pts != LibAV.noPTS, packet.pointee.pts < packet.pointee.dts { packet.pointee.pts = packet.pointee.dts }
            lastDTS[index] = packet.pointee.dts
        }
        let status = av_interleaved_write_frame(context, packet)
        if status < 0 { throw failure("cannot write packet", status) }
    }

    func finish() throws {
        guard headerWritten else { return }
        let status = av_write_trailer(context)
        if status < 0 { throw failure("cannot finish file", status) }
        avio_closep(&context!.pointee.pb)
    }

    private func failure(_ what: String, _ status: Int32) -> any Error {
        flag.isCancelled ? CancellationError() : LibAV.error(.write, path, what, status)
    }
}
