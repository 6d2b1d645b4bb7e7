import Foundation
import HLS

/// What a written media playlist holds, measured from its files: bit rates for BANDWIDTH
/// and AVERAGE-BANDWIDTH, and the strict parse's diagnostics.
struct RenditionMeasurement {
    var playlist: MediaPlaylist
    var peakBitRate: Int
    var averageBitRate: Int
    var diagnostics: [Diagnostic]

    init(playlistPath: String) throws {
        let text = try String(contentsOfFile: playlistPath, encoding: .utf8)
        let result = PlaylistParser.parse(text, options: .strict)
        diagnostics = result.diagnostics
        guard let media = result.playlist?.media else {
            throw MediaError(
                .packaging, url: playlistPath,
                message: "not a media playlist: " + result.errors.map(\.description).joined(separator: "; "))
        }
        playlist = media
        let directory = (playlistPath as NSString).deletingLastPathComponent
        var peak = 0.0
        var bytes = 0.0
        var seconds = 0.0
        for segment in media.segments {
            let path = (directory as NSString).appendingPathComponent(segment.uri)
            let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
            let length = segment.byteRange.map { Double($0.length) } ?? size
            if segment.duration > 0 { peak = max(peak, length * 8 / segment.duration) }
            bytes += length
            seconds += segment.duration
        }
        peakBitRate = Int(peak.rounded(.up))
        averageBitRate = seconds > 0 ? Int((bytes * 8 / seconds).rounded(.up)) : 0
    }
}
