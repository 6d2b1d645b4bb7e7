import CFFmpeg
import Foundation
import HLS

/// Measures the written renditions and writes `master.m3u8`, then checks every playlist of
/// the package with the strict parser.
struct MultivariantBuilder {
    let directory: String
    let video: AssetTrack?
    let audios: [AssetTrack]
    let subtitles: [AssetTrack]
    let videoRelatives: [(String, PixelSize, Double?)]
    let audioRelatives: [String]
    let subtitleRelatives: [String]
    let iFrameRelative: String?
    let tiles: ThumbnailTiles.Output?
    let pool: MediaThreadPool

    func path(_ relative: String) -> String { (directory as NSString).appendingPathComponent(relative) }

    /// The codec string of the stream in a rendition's initialization section.
    func codecString(ofRendition relative: String, _ measurement: RenditionMeasurement) async throws -> String? {
        guard let map = measurement.playlist.segments.first?.map?.uri else { return nil }
        let folder = (relative as NSString).deletingLastPathComponent
        let initPath = path((folder as NSString).appendingPathComponent(map))
        return try await pool.run { flag in
            let input = try FormatInput(source: .url(URL(fileURLWithPath: initPath)), flag: flag, findStreamInfo: false)
            guard let stream = input.streams.first else { return nil }
            return CodecString.of(stream.pointee.codecpar)
        }
    }

    /// Measures a written rendition on the pool (it reads every segment's size).
    private func measure(_ playlistPath: String) async throws -> RenditionMeasurement {
        try await pool.run { _ in try RenditionMeasurement(playlistPath: playlistPath) }
    }

    func build() async throws -> (path: String, playlist: MultivariantPlaylist, warnings: [String]) {
        var problems: [String] = []
        var warnings: [String] = []
        func collect(_ diagnostics: [Diagnostic], _ relative: String) {
            for diagnostic in diagnostics {
                if diagnostic.severity == .error { problems.append("\(relative): \(diagnostic)") } else { warnings.append("\(relative): \(diagnostic)") }
            }
        }
        var playlist = MultivariantPlaylist()
        playlist.version = 7
        playlist.independentSegments = true

        // Audio renditions. A variant's BANDWIDTH covers its video with the most demanding
        // rendition of each group it names (RFC 8216bis 4.4.6.2): the largest audio and the
        // largest subtitles, not the default ones; CODECS names every audio format in the group.
        var audioPeak = 0
        var audioAverage = 0
        var audioCodecs: [String] = []
        var defaultAudioPeak = 0
        var defaultAudioAverage = 0
        for (index, relative) in audioRelatives.enumerated() {
            let measurement = try await measure(path(relative))
            collect(measurement.diagnostics, relative)
            let track = audios[index]
            audioPeak = max(audioPeak, measurement.peakBitRate)
            audioAverage = max(audioAverage, measurement.averageBitRate)
            if index == 0 {
                defaultAudioPeak = measurement.peakBitRate
                defaultAudioAverage = measurement.averageBitRate
            }
            if let codec = try await codecString(ofRendition: relative, measurement), !audioCodecs.contains(codec) {
                if index == 0 { audioCodecs.insert(codec, at: 0) } else { audioCodecs.append(codec) }
            }
            var rendition = Rendition(type: .audio, groupID: "audio", name: Self.name(of: track, index: index, kind: "Audio"))
            rendition.uri = relative
            rendition.language = track.language
            rendition.isDefault = index == 0
            rendition.autoselect = true
            if let channels = try await channelCount(ofRendition: relative, measurement) ?? track.channelCount {
                rendition.channels = ChannelsDescription(count: channels)
            }
            playlist.renditions.append(rendition)
        }
        var subtitlePeak = 0
        var subtitleAverage = 0
        for (index, relative) in subtitleRelatives.enumerated() {
            let measurement = try await measure(path(relative))
            collect(measurement.diagnostics, relative)
            subtitlePeak = max(subtitlePeak, measurement.peakBitRate)
            subtitleAverage = max(subtitleAverage, measurement.averageBitRate)
            let track = subtitles[index]
            var rendition = Rendition(type: .subtitles, groupID: "subs", name: Self.name(of: track, index: index, kind: "Subtitles"))
            rendition.uri = relative
            rendition.language = track.language
            rendition.autoselect = true
            rendition.isDefault = false
            playlist.renditions.append(rendition)
        }

        let videoRange: VideoRange =
            switch video?.colorTransfer {
            case .pq: .pq
            case .hlg: .hlg
            default: .sdr
            }
        for (relative, size, frameRate) in videoRelatives {
            let measurement = try await measure(path(relative))
            collect(measurement.diagnostics, relative)
            var attributes = StreamAttributes()
            attributes.bandwidth = measurement.peakBitRate + audioPeak + subtitlePeak
            attributes.averageBandwidth = measurement.averageBitRate + audioAverage + subtitleAverage
            attributes.codecs = [try await codecString(ofRendition: relative, measurement)].compactMap { $0 } + audioCodecs
            attributes.resolution = Resolution(width: size.width, height: size.height)
            attributes.videoRange = videoRange
            var variant = VariantStream(uri: relative, attributes: attributes)
            variant.frameRate = frameRate.map { ($0 * 1000).rounded() / 1000 }
            if !audioRelatives.isEmpty { variant.audio = "audio" }
            if !subtitleRelatives.isEmpty { variant.subtitles = "subs" }
            playlist.variants.append(variant)
        }
        if videoRelatives.isEmpty, let first = audioRelatives.first {
            // Audio-only: the default audio rendition's playlist is the variant.
            var attributes = StreamAttributes()
            // The variant is the default rendition's playlist; the group's others may replace it.
            attributes.bandwidth = max(defaultAudioPeak, audioPeak) + subtitlePeak
            attributes.averageBandwidth = max(defaultAudioAverage, audioAverage) + subtitleAverage
            attributes.codecs = audioCodecs
            var variant = VariantStream(uri: first, attributes: attributes)
            variant.audio = "audio"
            playlist.variants.append(variant)
        }
        if let iFrameRelative, let top = videoRelatives.first {
            let measurement = try await measure(path(iFrameRelative))
            collect(measurement.diagnostics, iFrameRelative)
            var attributes = StreamAttributes()
            attributes.bandwidth = measurement.peakBitRate
            attributes.averageBandwidth = measurement.averageBitRate
            attributes.codecs = [try await codecString(ofRendition: iFrameRelative, measurement)].compactMap { $0 }
            attributes.resolution = Resolution(width: top.1.width, height: top.1.height)
            attributes.videoRange = videoRange
            playlist.iFrameVariants.append(IFrameVariantStream(uri: iFrameRelative, attributes: attributes))
        }
        if let tiles {
            let relative = BundleLayout.imagesPlaylist
            let tilesPath = tiles.playlistPath
            let text = try await pool.run { _ in try String(contentsOfFile: tilesPath, encoding: .utf8) }
            collect(PlaylistParser.parse(text, options: .strict).diagnostics, relative)
            var attributes = StreamAttributes()
            attributes.bandwidth = tiles.peakBitRate
            attributes.averageBandwidth = tiles.averageBitRate
            attributes.codecs = ["jpeg"]
            attributes.resolution = Resolution(width: tiles.tileSize.width, height: tiles.tileSize.height)
            playlist.imageVariants.append(ImageVariantStream(uri: relative, attributes: attributes))
        }

        let text = PlaylistWriter.write(playlist)
        let masterPath = path(BundleLayout.multivariantPlaylist)
        try await pool.run { _ in try text.write(toFile: masterPath, atomically: true, encoding: .utf8) }
        collect(PlaylistParser.parse(text, options: .strict).diagnostics, BundleLayout.multivariantPlaylist)
        if !problems.isEmpty {
            throw MediaError(.packaging, url: directory, message: "the written playlists are not valid HLS: " + problems.joined(separator: "; "))
        }
        return (masterPath, playlist, warnings)
    }

    private func channelCount(ofRendition relative: String, _ measurement: RenditionMeasurement) async throws -> Int? {
        guard let map = measurement.playlist.segments.first?.map?.uri else { return nil }
        let initPath = path(((relative as NSString).deletingLastPathComponent as NSString).appendingPathComponent(map))
        return try await pool.run { flag in
            let input = try FormatInput(source: .url(URL(fileURLWithPath: initPath)), flag: flag, findStreamInfo: false)
            return input.streams.first.map { Int($0.pointee.codecpar.pointee.ch_layout.nb_channels) }
        }
    }

    static func name(of track: AssetTrack, index: Int, kind: String) -> String {
        if let title = track.title, !title.isEmpty, !title.hasSuffix("Handler") { return title }
        if let language = track.language, let name = Locale(identifier: "en").localizedString(forLanguageCode: language) {
            return name
        }
        return "\(kind) \(index + 1)"
    }
}
