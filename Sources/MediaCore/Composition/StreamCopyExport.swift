import CFFmpeg

/// The stream-copy export: packets of each segment are copied with shifted timestamps.
/// Runs on one pool thread.
struct StreamCopyExport {
    let composition: MutableComposition
    let path: String
    let flag: CancellationFlag
    let progress: @Sendable (Double) -> Void

    /// One segment to copy, in the order the output is written.
    struct Item {
        var outputIndex: Int32
        var segment: CompositionTrackSegment
    }

    func run() throws {
        let output = try OutputFile(path: path, flag: flag)
        var items: [Item] = []
        var outputTimeBases: [AVRational] = []
        for track in composition.tracks {
            guard let first = track.segments.first(where: { !$0.isEmpty }), let asset = first.asset,
                let source = first.sourceTrack
            else { continue }
            let input = try FormatInput(source: asset.source, flag: flag)
            let stream = input.formatContext.pointee.streams[source.id]!
            let copied = try output.addStream(parameters: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
            try output.copyDisplayMatrix(from: stream, to: copied)
            let index = Int32(outputTimeBases.count)
            outputTimeBases.append(stream.pointee.time_base)
            items += track.segments.filter { !$0.isEmpty }.map { Item(outputIndex: index, segment: $0) }
        }
        try output.writeHeader()
        items.sort { $0.segment.targetRange.start < $1.segment.targetRange.start }
        let total = max(composition.duration.seconds, 0.001)
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        for item in items {
            try copy(item, into: output, packet: packet!)
            progress(min(0.99, item.segment.targetRange.end.seconds / total))
        }
        try output.finish()
    }

    private func copy(_ item: Item, into output: OutputFile, packet: UnsafeMutablePointer<AVPacket>) throws {
        let segment = item.segment
        let input = try FormatInput(source: segment.asset!.source, flag: flag)
        let index = Int32(segment.sourceTrack!.id)
        let stream = input.formatContext.pointee.streams[Int(index)]!
        let base = stream.pointee.time_base
        let isVideo = stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        let rate = stream.pointee.avg_frame_rate
        let halfFrame = rate.num > 0 ? av_rescale_q(1, AVRational(num: rate.den, den: rate.num * 2), base) : 1
        let start = LibAV.timestamp(segment.sourceRange.start, base)
        let end = LibAV.timestamp(segment.sourceRange.end, base)
        let offset = LibAV.timestamp(segment.targetRange.start, base) - start
        let seekStatus = av_seek_frame(input.formatContext, index, start + (isVideo ? halfFrame : 0), AVSEEK_FLAG_BACKWARD)
        if seekStatus < 0 { throw input.failure(.seek, "cannot seek", seekStatus) }
        while true {
            try flag.check()
            let read = av_read_frame(input.formatContext, packet)
            if read < 0 {
                if flag.isCancelled { throw CancellationError() }
                break
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == index else { continue }
            let pts = packet.pointee.pts == LibAV.noPTS ? packet.pointee.dts : packet.pointee.pts
            if isVideo {
                if packet.pointee.flags & AV_PKT_FLAG_KEY != 0 && pts >= end - halfFrame { break }
                if pts < start - halfFrame { continue }
            } else {
                if pts >= end { break }
                if pts + max(0, packet.pointee.duration) <= start { continue }
            }
            if packet.pointee.pts != LibAV.noPTS { packet.pointee.pts += offset }
            if packet.pointee.dts != LibAV.noPTS { packet.pointee.dts += offset }
            packet.pointee.pos = -1
            try output.write(packet, stream: item.outputIndex, timeBase: base)
        }
    }
}
