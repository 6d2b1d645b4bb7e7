import CFFmpeg
import Dispatch
import Synchronization

/// The re-encoding export: H.264 video turned upright and fitted (letterboxed) into the
/// render size, following the video composition's instructions, and every audio track mixed
/// into AAC stereo at 48 kHz, with black frames and silence for empty segments. Runs on one
/// pool thread.
struct ReencodeExport {
    let composition: MutableComposition
    let videoComposition: VideoComposition
    var audioMix: AudioMix? = nil
    let path: String
    let flag: CancellationFlag
    let progress: @Sendable (Double) -> Void

    static let sampleRate: Int32 = 48_000
    static let videoTimeBase = AVRational(num: 1, den: 90_000)

    func run() throws {
        let output = try OutputFile(path: path, flag: flag)
        let videoTracks = composition.tracks.filter { $0.mediaType == .video }
        let audioTracks = composition.tracks.filter { $0.mediaType == .audio }
        let video =
            videoTracks.isEmpty
            ? nil
            : try VideoEncoder(output: output, size: videoComposition.renderSize, frameDuration: videoComposition.frameDuration, flag: flag)
        let audio = audioTracks.isEmpty ? nil : try AudioEncoder(output: output, flag: flag)
        try output.writeHeader()
        audio?.mix(audioTracks.map(\.segments), volumes: audioTracks.map { audioMix?.parameters(for: $0.id) })
        let total = max(composition.duration.seconds, 0.001)
        // The picture follows the instructions: each names the track shown in its time range.
        for piece in Self.pictures(videoTracks, videoComposition.instructions) {
            try video?.append(piece)
            // Audio keeps pace, so the file is interleaved as it is written.
            try audio?.advance(to: piece.targetRange.end)
            progress(min(0.99, piece.targetRange.end.seconds / total))
        }
        try audio?.advance(to: composition.duration)
        try video?.finish()
        try audio?.finish()
        try output.finish()
    }

    /// What to draw, in time order: for each instruction, its track's segments cut to the
    /// instruction's range (an instruction naming no track draws blank picture).
    static func pictures(_ tracks: [CompositionTrack], _ instructions: [VideoComposition.Instruction]) -> [CompositionTrackSegment] {
        instructions.sorted { $0.timeRange.start < $1.timeRange.start }.flatMap { instruction -> [CompositionTrackSegment] in
            guard let track = tracks.first(where: { $0.id == instruction.trackID }) else { return [.empty(instruction.timeRange)] }
            let pieces = track.segments.compactMap { $0.clipped(to: instruction.timeRange) }
            return pieces.isEmpty ? [.empty(instruction.timeRange)] : pieces
        }
    }
}

/// Encodes a composition's video track with libx264.
final class VideoEncoder {
    let output: OutputFile
    let flag: CancellationFlag
    let size: PixelSize
    let frameDuration: MediaTime
    let streamIndex: Int32
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    /// The scaled picture before it is turned upright (rotated sources only).
    private var scratch: UnsafeMutablePointer<AVFrame>?
    private var lastPTS: Int64 = Int64.min
    /// Called with each encoded picture's time on the output timeline, in seconds.
    var onPosition: ((Double) -> Void)?

    init(output: OutputFile, size: PixelSize, frameDuration: MediaTime, flag: CancellationFlag) throws {
        self.output = output
        self.flag = flag
        self.size = PixelSize(width: max(2, size.width), height: max(2, size.height))
        self.frameDuration = frameDuration
        guard let encoder = avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_H264) else {
            throw MediaError(.export, url: output.path, message: "no H.264 encoder in this FFmpeg")
        }
        codec = avcodec_alloc_context3(encoder)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let codec, let frame else { throw MediaError(.export, url: output.path, message: "out of memory") }
        codec.pointee.width = Int32(self.size.width)
        codec.pointee.height = Int32(self.size.height)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = ReencodeExport.videoTimeBase
        let fps = frameDuration.isNumeric && frameDuration > .zero ? 1 / frameDuration.seconds : 30
        codec.pointee.framerate = av_d2q(fps, 100_000)
        codec.pointee.gop_size = Int32((fps * 2).rounded())
        codec.pointee.thread_count = 2
        if output.needsGlobalHeader { codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        av_opt_set(codec.pointee.priv_data, "preset", "veryfast", 0)
        av_opt_set(codec.pointee.priv_data, "crf", "21", 0)
        var status = avcodec_open2(codec, encoder, nil)
        if status < 0 { throw LibAV.error(.export, output.path, "cannot open H.264 encoder", status) }
        let parameters = avcodec_parameters_alloc()
        defer {
            var p = parameters
            avcodec_parameters_free(&p)
        }
        avcodec_parameters_from_context(parameters, codec)
        let stream = try output.addStream(parameters: parameters!, timeBase: ReencodeExport.videoTimeBase)
        stream.pointee.avg_frame_rate = codec.pointee.framerate
        streamIndex = stream.pointee.index
        frame.pointee.width = codec.pointee.width
        frame.pointee.height = codec.pointee.height
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        status = av_frame_get_buffer(frame, 0)
        if status < 0 { throw LibAV.error(.export, output.path, "cannot allocate frame", status) }
    }

    deinit {
        avcodec_free_context(&codec)
        av_frame_free(&frame)
        av_packet_free(&packet)
        av_frame_free(&scratch)
        sws_freeContext(scaler)
    }

    func append(_ segment: CompositionTrackSegment) throws {
        try Self.append(segment, to: [self])
    }

    /// Runs `body` for each encoder, side by side when there are several (each rung scales and
    /// encodes on its own thread while the others do; every encoder has its own scaler, frame,
    /// codec and output file), and rethrows the first error.
    static func forEach(_ encoders: [VideoEncoder], _ body: (VideoEncoder) throws -> Void) throws {
        guard encoders.count > 1 else {
            for encoder in encoders { try body(encoder) }
            return
        }
        let errors = Mutex<[any Error]>([])
        withoutActuallyEscaping(body) { body in
            let shared = UnsafeSendable(body)
            let all = UnsafeSendable(encoders)
            DispatchQueue.concurrentPerform(iterations: encoders.count) { index in
                do {
                    try shared.value(all.value[index])
                } catch {
                    errors.withLock { $0.append(error) }
                }
            }
        }
        if let first = errors.withLock({ $0.first }) { throw first }
    }

    /// Hands a value to `concurrentPerform`'s iterations, which all finish before it returns.
    private struct UnsafeSendable<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// The longest black lead-in drawn before a picture that starts late (60 s, 90 kHz).
    static let longestLeadIn: Int64 = 60 * 90_000
    /// The shortest time a picture that ends early is held for (10 s, 90 kHz).
    static let shortestHold: Int64 = 10 * 90_000

    /// Draws `segment` into every encoder in `encoders` (all with the same frame duration,
    /// at their own sizes), decoding it once: how a ladder is encoded in one pass, as one
    /// `ffmpeg` command with a split filter does.
    static func append(_ segment: CompositionTrackSegment, to encoders: [VideoEncoder]) throws {
        guard let first = encoders.first else { return }
        let targetStart = LibAV.timestamp(segment.targetRange.start, ReencodeExport.videoTimeBase)
        let targetEnd = LibAV.timestamp(segment.targetRange.end, ReencodeExport.videoTimeBase)
        guard let asset = segment.asset, let track = segment.sourceTrack else {
            let step = max(1, LibAV.timestamp(first.frameDuration, ReencodeExport.videoTimeBase))
            for encoder in encoders { try encoder.blank() }
            var pts = targetStart
            while pts < targetEnd {
                for encoder in encoders { try encoder.encode(pts: pts) }
                pts += step
            }
            return
        }
        let input = try FormatInput(source: asset.source, flag: first.flag)
        let reader = try FrameReader(input: input, streamIndex: track.id)
        let rotation = AssetInspection.displayRotation(reader.stream)
        let base = reader.timeBase
        // Asset time zero is the container's start (a transport stream's first time is rarely 0).
        let start = LibAV.timestamp(segment.sourceRange.start, base) + reader.startOffset
        let end = LibAV.timestamp(segment.sourceRange.end, base) + reader.startOffset
        let step = max(1, LibAV.timestamp(first.frameDuration, ReencodeExport.videoTimeBase))
        try reader.seek(to: start)
        var decoded = av_frame_alloc()
        defer { av_frame_free(&decoded) }
        var next = targetStart
        var firstShown: Int64?
        while try reader.decodeNext(into: decoded!) {
            let pts = FrameReader.timestamp(of: decoded!)
            if pts >= end { break }
            if pts + reader.nominalFrameDuration <= start {
                av_frame_unref(decoded)
                continue
            }
            let shown = max(pts, start)
            let outputPTS = targetStart + av_rescale_q(shown - start, base, ReencodeExport.videoTimeBase)
            // A picture that starts late (a video track that begins after the audio) is
            // preceded by black, so the rendition covers its whole range from the start.
            if next == targetStart, outputPTS - targetStart >= step, outputPTS - targetStart <= Self.longestLeadIn {
                for encoder in encoders { try encoder.blank() }
                while next + step / 2 < outputPTS {
                    for encoder in encoders { try encoder.encode(pts: next) }
                    next += step
                }
            }
            try Self.forEach(encoders) { encoder in
                try encoder.draw(decoded!, rotation: rotation)
                try encoder.encode(pts: outputPTS)
            }
            if firstShown == nil { firstShown = outputPTS }
            next = max(next, outputPTS + step)
            av_frame_unref(decoded)
        }
        if next == targetStart {
            for encoder in encoders { try encoder.blank() }
        }
        // A picture that ends early (audio longer than the video) holds its last frame (or
        // black, when there was none) to the end of the range — for at most as long again as
        // it showed (10 s at least), so a header that claims hours more costs nothing.
        let shownSpan = next - (firstShown ?? targetStart)
        let holdUntil = min(targetEnd, next + max(Self.shortestHold, shownSpan))
        while next < holdUntil {
            for encoder in encoders { try encoder.encode(pts: next) }
            next += step
        }
    }

    /// Fills the output frame with black, plane by plane at each plane's own height, as
    /// FFmpeg computes it (`av_image_fill_black`). Writing by hand once cleared half a chroma
    /// row past the frame (`linesize * (height + 1) / 2` is not `linesize * ((height + 1) / 2)`),
    /// which corrupted the heap whenever the height left no padding rows: 360×640, a phone's
    /// portrait video's second rung.
    private func blank() throws {
        let status = av_frame_make_writable(frame)
        if status < 0 { throw LibAV.error(.export, output.path, "cannot write the video frame", status) }
        let target = frame!.pointee
        var data: [UnsafeMutablePointer<UInt8>?] = [target.data.0, target.data.1, target.data.2, target.data.3]
        let linesizes: [Int] = [Int(target.linesize.0), Int(target.linesize.1), Int(target.linesize.2), Int(target.linesize.3)]
        let filled = av_image_fill_black(&data, linesizes, AV_PIX_FMT_YUV420P, AVCOL_RANGE_MPEG, target.width, target.height)
        if filled < 0 { throw LibAV.error(.export, output.path, "cannot clear the video frame", filled) }
    }

    /// Scales `source` into the output frame, turned upright by `rotation` (clockwise
    /// degrees, from the source's display matrix) and fitted with black bars.
    private func draw(_ source: UnsafeMutablePointer<AVFrame>, rotation: Int) throws {
        try blank()
        var displayWidth = Double(source.pointee.width)
        let sar = source.pointee.sample_aspect_ratio
        if sar.num > 0 && sar.den > 0 { displayWidth *= Double(sar.num) / Double(sar.den) }
        let displayHeight = Double(source.pointee.height)
        let turned = rotation % 180 != 0
        let (shownWidth, shownHeight) = turned ? (displayHeight, displayWidth) : (displayWidth, displayHeight)
        let factor = min(Double(size.width) / shownWidth, Double(size.height) / shownHeight)
        // The box the picture fills on screen, and the size it is scaled to before turning.
        let width = max(2, Int(shownWidth * factor) & ~1)
        let height = max(2, Int(shownHeight * factor) & ~1)
        let x = ((size.width - width) / 2) & ~1
        let y = ((size.height - height) / 2) & ~1
        let (scaledWidth, scaledHeight) = turned ? (height, width) : (width, height)
        let target = frame!.pointee
        if rotation == 0 {
            try scale(
                source, width: scaledWidth, height: scaledHeight,
                into: [
                    target.data.0! + y * Int(target.linesize.0) + x,
                    target.data.1! + (y / 2) * Int(target.linesize.1) + x / 2,
                    target.data.2! + (y / 2) * Int(target.linesize.2) + x / 2,
                ], strides: [target.linesize.0, target.linesize.1, target.linesize.2])
            return
        }
        let upright = try uprightFrame(width: scaledWidth, height: scaledHeight)
        try scale(
            source, width: scaledWidth, height: scaledHeight, into: [upright.pointee.data.0!, upright.pointee.data.1!, upright.pointee.data.2!],
            strides: [upright.pointee.linesize.0, upright.pointee.linesize.1, upright.pointee.linesize.2])
        let planes = [
            (upright.pointee.data.0!, upright.pointee.linesize.0, target.data.0!, target.linesize.0, 1),
            (upright.pointee.data.1!, upright.pointee.linesize.1, target.data.1!, target.linesize.1, 2),
            (upright.pointee.data.2!, upright.pointee.linesize.2, target.data.2!, target.linesize.2, 2),
        ]
        for (from, fromStride, to, toStride, subsampling) in planes {
            PlaneRotation.rotate(
                from, stride: Int(fromStride), width: scaledWidth / subsampling, height: scaledHeight / subsampling,
                into: to + (y / subsampling) * Int(toStride) + x / subsampling, stride: Int(toStride), clockwise: rotation)
        }
    }

    /// A YUV 4:2:0 scratch frame of the given size (kept while the size stays the same).
    private func uprightFrame(width: Int, height: Int) throws -> UnsafeMutablePointer<AVFrame> {
        if let scratch, scratch.pointee.width == Int32(width), scratch.pointee.height == Int32(height) { return scratch }
        av_frame_free(&scratch)
        scratch = av_frame_alloc()
        guard let scratch else { throw MediaError(.export, url: output.path, message: "out of memory") }
        scratch.pointee.width = Int32(width)
        scratch.pointee.height = Int32(height)
        scratch.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        let status = av_frame_get_buffer(scratch, 0)
        if status < 0 { throw LibAV.error(.export, output.path, "cannot allocate frame", status) }
        return scratch
    }

    private func scale(
        _ source: UnsafeMutablePointer<AVFrame>, width: Int, height: Int,
        into planes: [UnsafeMutablePointer<UInt8>], strides: [Int32]
    ) throws {
        scaler = sws_getCachedContext(
            scaler, source.pointee.width, source.pointee.height,
            AVPixelFormat(rawValue: source.pointee.format), Int32(width), Int32(height),
            AV_PIX_FMT_YUV420P, SWS_BICUBIC, nil, nil, nil)
        guard let scaler else { throw MediaError(.export, url: output.path, message: "cannot convert video frame") }
        var planes: [UnsafeMutablePointer<UInt8>?] = planes + [nil]
        var strides: [Int32] = strides + [0]
        _ = withUnsafePointer(to: &source.pointee.data) { data in
            withUnsafePointer(to: &source.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { linesize in
                        sws_scale(scaler, data, linesize, 0, source.pointee.height, &planes, &strides)
                    }
                }
            }
        }
    }

    private func encode(pts: Int64) throws {
        guard pts > lastPTS else { return }
        lastPTS = pts
        onPosition?(Double(pts) * av_q2d(ReencodeExport.videoTimeBase))
        frame!.pointee.pts = pts
        try send(frame)
    }

    func finish() throws { try send(nil) }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        try flag.check()
        var status = avcodec_send_frame(codec, frame)
        if status < 0 && status != LibAV.eof { throw LibAV.error(.export, output.path, "cannot encode video", status) }
        while true {
            status = avcodec_receive_packet(codec, packet)
            if status == LibAV.eagain || status == LibAV.eof { return }
            if status < 0 { throw LibAV.error(.export, output.path, "cannot encode video", status) }
            try output.write(packet!, stream: streamIndex, timeBase: codec!.pointee.time_base)
            av_packet_unref(packet)
        }
    }
}
