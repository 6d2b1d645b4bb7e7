import CFFmpeg
import Foundation

/// Converts a text subtitle track (SubRip, ASS, mov_text, WebVTT) to one WebVTT file by
/// decoding its cues with libavcodec. Runs on one pool thread.
enum WebVTTWriter {
    static let textCodecs: Set<String> = ["subrip", "srt", "ass", "ssa", "mov_text", "webvtt", "text"]

    static func convert(source: AssetSource, streamIndex index: Int, to path: String, flag: CancellationFlag) throws {
        let input = try FormatInput(source: source, flag: flag)
        let stream = input.streams[index]
        guard let decoder = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) else {
            throw MediaError(.unsupported, url: input.name, message: "no decoder for subtitle stream #\(index)")
        }
        var context = avcodec_alloc_context3(decoder)
        defer { avcodec_free_context(&context) }
        avcodec_parameters_to_context(context, stream.pointee.codecpar)
        context!.pointee.pkt_timebase = stream.pointee.time_base
        let status = avcodec_open2(context, decoder, nil)
        if status < 0 { throw LibAV.error(.packaging, input.name, "cannot open subtitle decoder", status) }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        var text = "WEBVTT\n\n"
        while av_read_frame(input.formatContext, packet) >= 0 {
            defer { av_packet_unref(packet) }
            try flag.check()
            guard packet!.pointee.stream_index == Int32(index) else { continue }
            var subtitle = AVSubtitle()
            var got: Int32 = 0
            guard avcodec_decode_subtitle2(context, &subtitle, &got, packet) >= 0, got != 0 else { continue }
            defer { avsubtitle_free(&subtitle) }
            let formatStart = input.formatContext.pointee.start_time == LibAV.noPTS ? 0
                : Double(input.formatContext.pointee.start_time) / Double(cff_time_base())
            let start = LibAV.time(packet!.pointee.pts, stream.pointee.time_base).seconds - formatStart
            let duration = LibAV.time(packet!.pointee.duration, stream.pointee.time_base).seconds
            guard start.isFinite else { continue }
            let end = duration.isFinite && duration > 0 ? start + duration
                : start + Double(subtitle.end_display_time) / 1000
            var lines: [String] = []
            for rectIndex in 0..<Int(subtitle.num_rects) {
                guard let rect = subtitle.rects[rectIndex] else { continue }
                if let ass = rect.pointee.ass { lines.append(dialogueText(String(cString: ass))) }
                else if let plain = rect.pointee.text { lines.append(String(cString: plain)) }
            }
            let body = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            guard !body.isEmpty, end > start else { continue }
            text += "\(timestamp(start)) --> \(timestamp(end))\n\(body)\n\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The text of an ASS `Dialogue` event (after its eight leading fields), without override
    /// blocks, with `\N` as line breaks.
    static func dialogueText(_ event: String) -> String {
        var fields = event.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
        var text = fields.count == 9 ? String(fields.removeLast()) : event
        while let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}") {
            text.removeSubrange(open...close)
        }
        return text.replacingOccurrences(of: "\\N", with: "\n").replacingOccurrences(of: "\\n", with: "\n")
            .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }

    static func timestamp(_ seconds: Double) -> String {
        let milliseconds = Int((max(0, seconds) * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
                      milliseconds / 1000 % 60, milliseconds % 1000)
    }
}
