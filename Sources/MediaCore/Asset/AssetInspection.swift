import CFFmpeg

/// Everything one open of an asset's container tells: the values behind `MediaAsset`'s properties.
struct AssetInspection: Sendable {
    var formatName: String
    var duration: MediaTime
    var tracks: [AssetTrack]
    var metadata: [MetadataItem]
    var chapters: [Chapter]
    var bitRate: Int?

    /// Reads the container's header and stream information (runs on a pool thread).
    init(input: FormatInput) {
        let context = input.formatContext
        formatName = LibAV.string(context.pointee.iformat.pointee.name) ?? "unknown"
        let start = context.pointee.start_time == LibAV.noPTS ? 0 : context.pointee.start_time
        let base = AVRational(num: 1, den: cff_time_base())
        bitRate = context.pointee.bit_rate > 0 ? Int(context.pointee.bit_rate) : nil
        var metadata = LibAV.entries(context.pointee.metadata).map {
            MetadataItem(identifier: MetadataItem.identifier(forKey: $0.key), key: $0.key, stringValue: $0.value)
        }
        var tracks: [AssetTrack] = []
        for stream in input.streams {
            let track = Self.track(stream, formatStart: LibAV.time(start, base))
            if track.isAttachedPicture {
                let picture = stream.pointee.attached_pic
                if picture.size > 0, let data = picture.data {
                    metadata.append(
                        MetadataItem(
                            identifier: .artwork, key: "attached_pic",
                            dataValue: Array(UnsafeBufferPointer(start: data, count: Int(picture.size)))))
                }
            }
            tracks.append(track)
        }
        self.tracks = tracks
        self.metadata = metadata
        var duration = LibAV.time(context.pointee.duration, base)
        if !duration.isNumeric {
            let ends = tracks.filter { $0.timeRange.duration.isNumeric }.map(\.timeRange.end)
            duration = ends.max() ?? .indefinite
        }
        self.duration = duration
        chapters = (0..<Int(context.pointee.nb_chapters)).compactMap { index in
            guard let chapter = context.pointee.chapters[index] else { return nil }
            let title = LibAV.entries(chapter.pointee.metadata).first { $0.key.lowercased() == "title" }?.value
            let begin = LibAV.time(chapter.pointee.start, chapter.pointee.time_base)
            let end = LibAV.time(chapter.pointee.end, chapter.pointee.time_base)
            return Chapter(title: title, timeRange: MediaTimeRange(start: begin, end: end))
        }
    }

    private static func track(_ stream: UnsafeMutablePointer<AVStream>, formatStart: MediaTime) -> AssetTrack {
        let parameters = stream.pointee.codecpar!.pointee
        let mediaType: AssetTrack.MediaType =
            switch parameters.codec_type {
            case AVMEDIA_TYPE_VIDEO: .video
            case AVMEDIA_TYPE_AUDIO: .audio
            case AVMEDIA_TYPE_SUBTITLE: .subtitle
            case AVMEDIA_TYPE_DATA: .data
            case AVMEDIA_TYPE_ATTACHMENT: .attachment
            default: .unknown
            }
        let tags = LibAV.entries(stream.pointee.metadata)
        func tag(_ name: String) -> String? { tags.first { $0.key.lowercased() == name }?.value }
        let base = stream.pointee.time_base
        let streamStart = LibAV.time(stream.pointee.start_time, base)
        let start = streamStart.isNumeric && formatStart.isNumeric ? streamStart - formatStart : .zero
        let duration = LibAV.time(stream.pointee.duration, base)
        let disposition = stream.pointee.disposition
        var track = AssetTrack(
            id: Int(stream.pointee.index), mediaType: mediaType,
            codec: LibAV.string(avcodec_get_name(parameters.codec_id)) ?? "unknown",
            profile: LibAV.string(avcodec_profile_name(parameters.codec_id, parameters.profile)),
            timeRange: MediaTimeRange(start: start, duration: duration.isNumeric ? duration : .indefinite),
            naturalSize: nil, pixelAspectRatio: nil, displayRotation: 0, nominalFrameRate: nil,
            isVariableFrameRate: false, language: tag("language").flatMap { $0 == "und" ? nil : $0 },
            title: tag("title") ?? tag("handler_name"), channelCount: nil, channelLayout: nil,
            sampleRate: nil, estimatedDataRate: nil, colorTransfer: nil, bitDepth: nil, pixelFormat: nil,
            isDefault: disposition & AV_DISPOSITION_DEFAULT != 0,
            isAttachedPicture: disposition & AV_DISPOSITION_ATTACHED_PIC != 0)
        var extradataHash = Hasher()
        if let extradata = parameters.extradata, parameters.extradata_size > 0 {
            extradataHash.combine(bytes: UnsafeRawBufferPointer(start: extradata, count: Int(parameters.extradata_size)))
        }
        track.codecSignature =
            [
                parameters.codec_id.rawValue, UInt32(bitPattern: parameters.profile),
                UInt32(bitPattern: parameters.level), UInt32(bitPattern: parameters.width),
                UInt32(bitPattern: parameters.height), UInt32(bitPattern: parameters.format),
                UInt32(bitPattern: parameters.sample_rate), UInt32(bitPattern: parameters.ch_layout.nb_channels),
            ]
            .map(String.init).joined(separator: ":") + ":\(parameters.extradata_size):\(extradataHash.finalize())"
        if parameters.bit_rate > 0 {
            track.estimatedDataRate = Int(parameters.bit_rate)
        } else if let bps = tag("bps").flatMap(Int.init) {
            track.estimatedDataRate = bps
        }
        switch mediaType {
        case .video:
            track.naturalSize = PixelSize(width: Int(parameters.width), height: Int(parameters.height))
            let sar = stream.pointee.sample_aspect_ratio.num > 0 ? stream.pointee.sample_aspect_ratio : parameters.sample_aspect_ratio
            if sar.num > 0 && sar.den > 0 {
                track.pixelAspectRatio = PixelAspectRatio(horizontalSpacing: Int(sar.num), verticalSpacing: Int(sar.den))
            }
            track.displayRotation = displayRotation(stream)
            let average = stream.pointee.avg_frame_rate
            let real = stream.pointee.r_frame_rate
            if average.num > 0 && average.den > 0 {
                track.nominalFrameRate = av_q2d(average)
            } else if real.num > 0 && real.den > 0 {
                track.nominalFrameRate = av_q2d(real)
            }
            if average.num > 0, real.num > 0, abs(av_q2d(average) - av_q2d(real)) > 0.01 * av_q2d(real) {
                track.isVariableFrameRate = true
            }
            track.colorTransfer =
                switch parameters.color_trc {
                case AVCOL_TRC_SMPTE2084: .pq
                case AVCOL_TRC_ARIB_STD_B67: .hlg
                default: .sdr
                }
            let format = AVPixelFormat(rawValue: parameters.format)
            if let descriptor = av_pix_fmt_desc_get(format) {
                track.bitDepth = Int(descriptor.pointee.comp.0.depth)
                track.pixelFormat = LibAV.string(descriptor.pointee.name)
            }
        case .audio:
            track.channelCount = Int(parameters.ch_layout.nb_channels)
            track.sampleRate = Int(parameters.sample_rate)
            var layout = parameters.ch_layout
            var buffer = [CChar](repeating: 0, count: 128)
            if av_channel_layout_describe(&layout, &buffer, buffer.count) > 0 {
                track.channelLayout = String(cString: buffer)
            }
        default:
            break
        }
        return track
    }

    /// Clockwise display rotation from the stream's display matrix, snapped to 90° steps.
    static func displayRotation(_ stream: UnsafeMutablePointer<AVStream>) -> Int {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else {
            return 0
        }
        let angle = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard angle.isFinite else { return 0 }
        // av_display_rotation_get answers counter-clockwise degrees.
        let clockwise = Int((-angle / 90).rounded()) * 90
        return ((clockwise % 360) + 360) % 360
    }
}
