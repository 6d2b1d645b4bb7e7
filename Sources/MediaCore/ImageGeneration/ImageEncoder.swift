import CFFmpeg

/// Encodes `VideoImage`s to JPEG, PNG or WebP with libavcodec's image encoders.
///
/// Call `encode` from a pool thread (`VideoImage.encoded(as:)` does that for you).
enum ImageEncoder {
    static func encode(_ image: VideoImage, as format: ImageFormat) throws -> [UInt8] {
        _ = LibAV.initialized
        let (codecID, pixelFormat): (AVCodecID, AVPixelFormat) =
            switch format {
            case .jpeg: (AV_CODEC_ID_MJPEG, AV_PIX_FMT_YUVJ420P)
            case .png: (AV_CODEC_ID_PNG, AV_PIX_FMT_RGB24)
            case .webp: (AV_CODEC_ID_WEBP, AV_PIX_FMT_YUV420P)
            }
        func failure(_ what: String, _ code: Int32 = 0) -> MediaError {
            code < 0
                ? LibAV.error(.encode, format.fileExtension, what, code)
                : MediaError(.encode, url: format.fileExtension, message: what)
        }
        guard let codec = avcodec_find_encoder(codecID) else { throw failure("no \(format.fileExtension) encoder in this FFmpeg") }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&context)
            av_frame_free(&frame)
            av_packet_free(&packet)
        }
        guard let context, let frame, let packet else { throw failure("out of memory") }
        context.pointee.width = Int32(image.width)
        context.pointee.height = Int32(image.height)
        context.pointee.pix_fmt = pixelFormat
        context.pointee.time_base = AVRational(num: 1, den: 25)
        // Large pictures encode in slices on two threads (MJPEG supports slice threading).
        if image.width * image.height >= 640 * 360 { context.pointee.thread_count = 2 }
        switch format {
        case .jpeg(let quality):
            let qscale = 2 + (1 - min(1, max(0, quality))) * 29
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = Int32(qscale * Double(FF_QP2LAMBDA))
            context.pointee.color_range = AVCOL_RANGE_JPEG
        case .webp(let quality):
            av_opt_set_double(context.pointee.priv_data, "quality", min(1, max(0, quality)) * 100, 0)
        case .png:
            break
        }
        var status = avcodec_open2(context, codec, nil)
        if status < 0 { throw failure("cannot open encoder", status) }

        frame.pointee.width = Int32(image.width)
        frame.pointee.height = Int32(image.height)
        frame.pointee.format = pixelFormat.rawValue
        frame.pointee.pts = 0
        status = av_frame_get_buffer(frame, 0)
        if status < 0 { throw failure("cannot allocate frame", status) }
        try fill(frame, from: image, format: pixelFormat)
        if case .jpeg = format { frame.pointee.quality = context.pointee.global_quality }

        status = avcodec_send_frame(context, frame)
        if status < 0 { throw failure("cannot encode", status) }
        avcodec_send_frame(context, nil)
        status = avcodec_receive_packet(context, packet)
        if status < 0 { throw failure("encoder produced no image", status) }
        defer { av_packet_unref(packet) }
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }

    /// Copies (and converts) the RGB pixels into the frame's planes.
    private static func fill(_ frame: UnsafeMutablePointer<AVFrame>, from image: VideoImage, format: AVPixelFormat) throws {
        guard
            let scaler = sws_getContext(
                Int32(image.width), Int32(image.height), AV_PIX_FMT_RGB24,
                Int32(image.width), Int32(image.height), format,
                SWS_BILINEAR, nil, nil, nil)
        else {
            throw MediaError(.encode, url: "image", message: "cannot convert to encoder pixel format")
        }
        defer { sws_freeContext(scaler) }
        // swscale's RGB24 input reads whole SIMD blocks, up to 32 bytes past the last row:
        // give it a padded copy so a picture ending at a page boundary cannot fault.
        var padded = image.pixels
        padded.append(contentsOf: repeatElement(0, count: 64))
        padded.withUnsafeBufferPointer { source in
            var sources: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(image.width * 3), 0, 0, 0]
            withUnsafeMutablePointer(to: &frame.pointee.data) { dataTuple in
                withUnsafeMutablePointer(to: &frame.pointee.linesize) { linesizeTuple in
                    dataTuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { data in
                        linesizeTuple.withMemoryRebound(to: Int32.self, capacity: 8) { linesizes in
                            _ = sws_scale(scaler, &sources, &strides, 0, Int32(image.height), data, linesizes)
                        }
                    }
                }
            }
        }
    }
}

extension VideoImage {
    /// The image encoded as JPEG, PNG or WebP (on a MediaCore pool thread).
    public func encoded(as format: ImageFormat, pool: MediaThreadPool = .shared) async throws -> [UInt8] {
        try await pool.run { _ in try ImageEncoder.encode(self, as: format) }
    }
}
