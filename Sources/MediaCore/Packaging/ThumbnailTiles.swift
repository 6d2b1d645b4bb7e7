import Foundation
import HLS

/// Trick-play thumbnails for players: JPEG tile sheets with an image media playlist
/// (`EXT-X-IMAGES-ONLY` + `EXT-X-TILES`) and a WebVTT track pointing into the sheets
/// (`sheet.jpg#xywh=…`).
enum ThumbnailTiles {
    struct Output {
        var playlistPath: String
        var tileSize: PixelSize
        var peakBitRate: Int
        var averageBitRate: Int
    }

    static func make(asset: MediaAsset, duration: MediaTime, options: PackagingOptions, directory: String) async throws -> Output? {
        guard duration.isNumeric, duration.seconds > 0 else { return nil }
        try await asset.pool.run { _ in try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        let interval = options.thumbnailInterval
        let times = stride(from: 0.0, to: duration.seconds, by: interval).map { MediaTime(seconds: $0, preferredTimescale: 1000) }
        var generator = ImageGenerator(asset: asset)
        generator.maximumSize = PixelSize(width: options.thumbnailWidth, height: 0)
        generator.setTolerance(MediaTime(seconds: interval / 2, preferredTimescale: 1000))
        // In request order; a picture that fails stays a black tile, so every later tile
        // still sits at its own time.
        var images: [VideoImage?] = []
        for await result in generator.images(for: times) { images.append(try? result.image) }
        guard let first = images.lazy.compactMap({ $0 }).first else { return nil }
        // Pictures that came out another size (a stream change) are fitted to the first's.
        let tile = first.size
        let perSheet = options.tileColumns * options.tileRows
        var playlist = MediaPlaylist()
        playlist.version = 7
        playlist.imagesOnly = true
        playlist.playlistType = .vod
        playlist.endList = true
        var vtt = "WEBVTT\n\n"
        var peak = 0
        var totalBytes = 0
        for (sheetIndex, start) in stride(from: 0, to: images.count, by: perSheet).enumerated() {
            let chunk = Array(images[start..<min(images.count, start + perSheet)])
            var pixels = [UInt8](repeating: 0, count: tile.width * options.tileColumns * tile.height * options.tileRows * 3)
            let sheetWidth = tile.width * options.tileColumns
            for (index, image) in chunk.enumerated() {
                guard let image else { continue }
                let column = index % options.tileColumns
                let row = index / options.tileColumns
                for y in 0..<min(tile.height, image.height) {
                    let source = y * image.width * 3
                    let target = ((row * tile.height + y) * sheetWidth + column * tile.width) * 3
                    let count = min(tile.width, image.width) * 3
                    pixels.replaceSubrange(target..<target + count, with: image.pixels[source..<source + count])
                }
            }
            let sheet = VideoImage(width: sheetWidth, height: tile.height * options.tileRows, pixels: pixels)
            let data = try await sheet.encoded(as: .jpeg(quality: 0.7))
            let name = String(format: "tiles-%05d.jpg", sheetIndex + 1)
            let sheetPath = (directory as NSString).appendingPathComponent(name)
            try await asset.pool.run { _ in try Data(data).write(to: URL(fileURLWithPath: sheetPath)) }
            let sheetStart = Double(start) * interval
            let sheetDuration = min(Double(chunk.count) * interval, duration.seconds - sheetStart)
            var segment = MediaSegment(uri: name, duration: sheetDuration)
            segment.tiles = Tiles(
                resolution: Resolution(width: tile.width, height: tile.height),
                columns: options.tileColumns, rows: options.tileRows, duration: interval)
            playlist.segments.append(segment)
            peak = max(peak, Int(Double(data.count * 8) / max(sheetDuration, 0.001)))
            totalBytes += data.count
            for index in chunk.indices {
                let cueStart = sheetStart + Double(index) * interval
                let cueEnd = min(cueStart + interval, duration.seconds)
                let x = (index % options.tileColumns) * tile.width
                let y = (index / options.tileColumns) * tile.height
                vtt += "\(WebVTTTimestamp.text(cueStart)) --> \(WebVTTTimestamp.text(cueEnd))\n"
                vtt += "\(name)#xywh=\(x),\(y),\(tile.width),\(tile.height)\n\n"
            }
        }
        playlist.targetDuration = Int((playlist.segments.map(\.duration).max() ?? interval).rounded(.up))
        let path = (directory as NSString).appendingPathComponent((BundleLayout.imagesPlaylist as NSString).lastPathComponent)
        let (playlistText, spriteMap) = (PlaylistWriter.write(playlist), vtt)
        try await asset.pool.run { _ in
            try playlistText.write(toFile: path, atomically: true, encoding: .utf8)
            try spriteMap.write(toFile: (directory as NSString).appendingPathComponent("thumbnails.vtt"), atomically: true, encoding: .utf8)
        }
        return Output(
            playlistPath: path, tileSize: tile, peakBitRate: peak,
            averageBitRate: Int(Double(totalBytes * 8) / duration.seconds))
    }
}
