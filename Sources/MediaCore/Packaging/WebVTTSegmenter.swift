import CFFmpeg
import Foundation

/// Turns a text subtitle track (SubRip, ASS, mov_text, WebVTT) into segmented WebVTT for HLS
/// with FFmpeg's own pieces: the track's decoder, the `webvtt` encoder (which also turns ASS
/// styling into WebVTT tags) and the `webvtt` muxer. Each segment carries an
/// `X-TIMESTAMP-MAP` header that maps cue time 0 to the media timeline, and every cue that is
/// on screen during a segment is in that segment (RFC 8216 §3.5), so a cue that spans a
/// boundary is repeated. Runs on one pool thread.
enum WebVTTSegmenter {
    static let textCodecs: Set<String> = ["subrip", "srt", "ass", "ssa", "mov_text", "webvtt", "text"]

    /// One written segment: its file name (in the output folder) and its duration.
    struct Segment: Sendable, Equatable {
        var name: String
        var duration: Double
    }

    /// A cue as the `webvtt` encoder made it: milliseconds from the presentation start.
    struct Cue {
        var start: Int64
        var end: Int64
        var payload: [UInt8]
    }

    static func segmentName(_ index: Int) -> String { String(format: "subtitles-%05d.vtt", index + 1) }

    /// Writes the segments of stream `index` of `source` into `folder`, `segmentDuration` long
    /// (the last one shorter) over `duration` seconds. `timelineStart` is the media time, in
    /// seconds, at which cue time 0 is shown (0 for Marquee's packages).
    static func write(
        source: AssetSource, streamIndex index: Int, duration: Double, segmentDuration: Double,
        timelineStart: Double = 0, into folder: String, flag: CancellationFlag
    ) throws -> [Segment] {
        let cues = try encodedCues(source: source, streamIndex: index, flag: flag)
        let total = max(duration, 0.001)
        let length = max(1, segmentDuration)
        // A remainder under half a second joins the last segment rather than standing alone.
        let count = max(1, Int(((total - 0.5) / length).rounded(.up)))
        var segments: [Segment] = []
        for segment in 0..<count {
            try flag.check()
            let start = Double(segment) * length
            let end = segment == count - 1 ? total : start + length
            let (startMS, endMS) = (Int64((start * 1000).rounded()), Int64((end * 1000).rounded()))
            let name = segmentName(segment)
            try writeSegment(
                cues.filter { $0.start < endMS && $0.end > startMS }, to: (folder as NSString).appendingPathComponent(name),
                timelineStart: timelineStart, flag: flag)
            segments.append(Segment(name: name, duration: end - start))
        }
        return segments
    }

    /// Decodes every cue of the track and re-encodes its text with FFmpeg's `webvtt` encoder.
    static func encodedCues(source: AssetSource, streamIndex index: Int, flag: CancellationFlag) throws -> [Cue] {
        let input = try FormatInput(source: source, flag: flag)
        let stream = input.streams[index]
        guard let decoder = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) else {
            throw MediaError(.unsupported, url: input.name, message: "no decoder for subtitle stream #\(index)")
        }
        var decoding = avcodec_alloc_context3(decoder)
        defer { avcodec_free_context(&decoding) }
        avcodec_parameters_to_context(decoding, stream.pointee.codecpar)
        decoding!.pointee.pkt_timebase = stream.pointee.time_base
        var status = avcodec_open2(decoding, decoder, nil)
        if status < 0 { throw LibAV.error(.packaging, input.name, "cannot open subtitle decoder", status) }

        guard let encoder = avcodec_find_encoder(AV_CODEC_ID_WEBVTT) else {
            throw MediaError(.unsupported, url: input.name, message: "this FFmpeg has no WebVTT encoder")
        }
        var encoding = avcodec_alloc_context3(encoder)
        defer { avcodec_free_context(&encoding) }
        encoding!.pointee.time_base = AVRational(num: 1, den: 1000)
        // The encoder reads styles from the decoder's ASS header (every text decoder makes one).
        let headerSize = Int(decoding!.pointee.subtitle_header_size)
        if let header = decoding!.pointee.subtitle_header, headerSize > 0,
            let copy = av_mallocz(headerSize + 1)?.assumingMemoryBound(to: UInt8.self)
        {
            copy.update(from: header, count: headerSize)
            encoding!.pointee.subtitle_header = copy
            encoding!.pointee.subtitle_header_size = Int32(headerSize)
        }
        status = avcodec_open2(encoding, encoder, nil)
        if status < 0 { throw LibAV.error(.packaging, input.name, "cannot open the WebVTT encoder", status) }

        let formatStart =
            input.formatContext.pointee.start_time == LibAV.noPTS
            ? 0
            : Double(input.formatContext.pointee.start_time) / Double(cff_time_base())
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var cues: [Cue] = []
        while av_read_frame(input.formatContext, packet) >= 0 {
            defer { av_packet_unref(packet) }
            try flag.check()
            guard packet!.pointee.stream_index == Int32(index) else { continue }
            var subtitle = AVSubtitle()
            var got: Int32 = 0
            guard avcodec_decode_subtitle2(decoding, &subtitle, &got, packet) >= 0, got != 0 else { continue }
            defer { avsubtitle_free(&subtitle) }
            let start = LibAV.time(packet!.pointee.pts, stream.pointee.time_base).seconds - formatStart
            let length = LibAV.time(packet!.pointee.duration, stream.pointee.time_base).seconds
            guard start.isFinite else { continue }
            let end = length.isFinite && length > 0 ? start + length : start + Double(subtitle.end_display_time) / 1000
            guard end > start, end > 0 else { continue }
            escapeText(of: &subtitle)
            let written = buffer.withUnsafeMutableBufferPointer { raw in
                avcodec_encode_subtitle(encoding, raw.baseAddress, Int32(raw.count), &subtitle)
            }
            guard written > 0 else { continue }  // an empty cue, or a bitmap one the encoder refuses
            cues.append(
                Cue(
                    start: Int64((max(0, start) * 1000).rounded()), end: Int64((end * 1000).rounded()),
                    payload: Array(buffer[0..<Int(written)])))
        }
        return cues.sorted { $0.start < $1.start }
    }

    /// WebVTT cue text must spell `&` and `<` as `&amp;` and `&lt;`; FFmpeg's encoder copies
    /// text as it is, and ASS (what every text decoder produces) marks styling with `{…}`, never
    /// with these, so they are escaped before encoding.
    static func escapeText(of subtitle: inout AVSubtitle) {
        for rectIndex in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[rectIndex], rect.pointee.type == SUBTITLE_ASS, let ass = rect.pointee.ass else { continue }
            let text = String(cString: ass)
            guard text.contains("&") || text.contains("<") else { continue }
            let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            guard let copy = av_strdup(escaped) else { continue }
            av_free(ass)
            rect.pointee.ass = copy
        }
    }

    /// One segment through FFmpeg's `webvtt` muxer, with the timestamp map after its header line.
    private static func writeSegment(_ cues: [Cue], to path: String, timelineStart: Double, flag: CancellationFlag) throws {
        let output = try OutputFile(path: path, format: "webvtt", flag: flag)
        guard let parameters = avcodec_parameters_alloc() else { throw MediaError(.write, url: path, message: "out of memory") }
        var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
        defer { avcodec_parameters_free(&owned) }
        parameters.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
        parameters.pointee.codec_id = AV_CODEC_ID_WEBVTT
        let milliseconds = AVRational(num: 1, den: 1000)
        _ = try output.addStream(parameters: parameters, timeBase: milliseconds)
        try output.writeHeader(options: [:])
        // The muxer wrote "WEBVTT\n"; header lines may follow it directly.
        let map = Array("X-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:\(Int64((timelineStart * 90_000).rounded()))\n".utf8)
        map.withUnsafeBufferPointer { avio_write(output.context!.pointee.pb, $0.baseAddress, Int32($0.count)) }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        for cue in cues {
            av_packet_unref(packet)
            if av_new_packet(packet, Int32(cue.payload.count)) < 0 { throw MediaError(.write, url: path, message: "out of memory") }
            cue.payload.withUnsafeBufferPointer { packet!.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
            packet!.pointee.pts = cue.start
            packet!.pointee.dts = cue.start
            packet!.pointee.duration = cue.end - cue.start
            try output.write(packet!, stream: 0, timeBase: milliseconds)
        }
        try output.finish()
    }
}
