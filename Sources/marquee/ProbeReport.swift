import Foundation
import MediaCore

/// The JSON shape of `marquee probe --json`: the asset's format, duration, tracks, metadata
/// and chapters, times in seconds.
struct ProbeReport: Encodable {
    struct Track: Encodable {
        var index: Int
        var type: String
        var codec: String
        var profile: String?
        var start: Double?
        var duration: Double?
        var width: Int?
        var height: Int?
        var displayWidth: Int?
        var displayHeight: Int?
        var rotation: Int?
        var frameRate: Double?
        var variableFrameRate: Bool?
        var language: String?
        var title: String?
        var channels: Int?
        var channelLayout: String?
        var sampleRate: Int?
        var bitRate: Int?
        var colorTransfer: String?
        var bitDepth: Int?
        var pixelFormat: String?
        var isDefault: Bool
        var attachedPicture: Bool?
    }
    struct Item: Encodable {
        var identifier: String?
        var key: String
        var value: String?
        var bytes: Int?
    }
    struct ChapterEntry: Encodable {
        var title: String?
        var start: Double
        var end: Double
    }

    var source: String
    var format: String
    var duration: Double?
    var bitRate: Int?
    var tracks: [Track]
    var metadata: [Item]
    var chapters: [ChapterEntry]

    init(
        source: String, format: String, duration: MediaTime, bitRate: Int?, tracks: [AssetTrack],
        metadata: [MetadataItem], chapters: [Chapter]
    ) {
        self.source = source
        self.format = format
        self.duration = duration.isNumeric ? duration.seconds : nil
        self.bitRate = bitRate
        self.tracks = tracks.map { track in
            let video = track.mediaType == .video
            let audio = track.mediaType == .audio
            return Track(
                index: track.id, type: track.mediaType.rawValue, codec: track.codec, profile: track.profile,
                start: track.timeRange.start.isNumeric ? track.timeRange.start.seconds : nil,
                duration: track.timeRange.duration.isNumeric ? track.timeRange.duration.seconds : nil,
                width: track.naturalSize?.width, height: track.naturalSize?.height,
                displayWidth: track.presentationSize?.width, displayHeight: track.presentationSize?.height,
                rotation: video ? track.displayRotation : nil, frameRate: track.nominalFrameRate,
                variableFrameRate: video ? track.isVariableFrameRate : nil, language: track.language,
                title: track.title, channels: audio ? track.channelCount : nil,
                channelLayout: track.channelLayout, sampleRate: track.sampleRate, bitRate: track.estimatedDataRate,
                colorTransfer: track.colorTransfer?.rawValue, bitDepth: track.bitDepth, pixelFormat: track.pixelFormat,
                isDefault: track.isDefault, attachedPicture: track.isAttachedPicture ? true : nil)
        }
        self.metadata = metadata.map {
            Item(identifier: $0.identifier?.rawValue, key: $0.key, value: $0.stringValue, bytes: $0.dataValue?.count)
        }
        self.chapters = chapters.map {
            ChapterEntry(title: $0.title, start: $0.timeRange.start.seconds, end: $0.timeRange.end.seconds)
        }
    }

    /// A short human-readable summary.
    var text: String {
        var lines = ["\(source)", "  format   \(format)"]
        lines.append(
            "  duration \(duration.map { String(format: "%.3f s", $0) } ?? "indefinite")"
                + (bitRate.map { String(format: ", %.0f kb/s", Double($0) / 1000) } ?? ""))
        for track in tracks {
            var parts = ["#\(track.index) \(track.type)", track.codec]
            if let profile = track.profile { parts.append("(\(profile))") }
            if let width = track.width, let height = track.height { parts.append("\(width)x\(height)") }
            if let w = track.displayWidth, let h = track.displayHeight, w != track.width || h != track.height {
                parts.append("shown \(w)x\(h)")
            }
            if let rotation = track.rotation, rotation != 0 { parts.append("rotated \(rotation)°") }
            if let rate = track.frameRate { parts.append(String(format: "%.3g fps", rate) + (track.variableFrameRate == true ? " (variable)" : "")) }
            if let depth = track.bitDepth, track.type == "video" { parts.append("\(depth)-bit") }
            if let transfer = track.colorTransfer, transfer != "sdr" { parts.append(transfer.uppercased()) }
            if let rate = track.sampleRate { parts.append("\(rate) Hz") }
            if let layout = track.channelLayout { parts.append(layout) } else if let channels = track.channels { parts.append("\(channels) ch") }
            if let language = track.language { parts.append("[\(language)]") }
            if let bitRate = track.bitRate { parts.append(String(format: "%.0f kb/s", Double(bitRate) / 1000)) }
            if track.attachedPicture == true { parts.append("cover art") }
            lines.append("  track    " + parts.joined(separator: " "))
        }
        for item in metadata {
            let value = item.value ?? item.bytes.map { "<\($0) bytes>" } ?? ""
            lines.append("  tag      \(item.identifier ?? item.key): \(value)")
        }
        for chapter in chapters {
            lines.append(String(format: "  chapter  %.3f–%.3f ", chapter.start, chapter.end) + (chapter.title ?? ""))
        }
        return lines.joined(separator: "\n")
    }
}
