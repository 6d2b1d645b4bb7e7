import BlockingWork
import Foundation
import HLS
import MediaCore

/// The web player's scrubbing thumbnails: one JPEG sprite sheet (`trickplay.jpg`) with a tile
/// per `interval` seconds, row by row, described by `trickplay.json` (`TrickPlayImages`).
///
/// At most 100 tiles (one per second for clips up to 100 s), ten to a row, 160 pixels wide
/// (90 for portrait video). A time whose frame does not decode leaves its tile black, so every
/// later tile stays where the player looks for it.
enum TrickPlaySheet {
    static let image = BundleLayout.trickPlayImage
    static let description = BundleLayout.trickPlayDescription

    /// The layout for a video of `duration` seconds shown at `display` size.
    static func layout(duration: Double, display: PixelSize) -> TrickPlayImages {
        let interval = max(1, (duration / 100).rounded(.up))
        let count = max(1, Int((duration / interval).rounded(.up)))
        let columns = min(10, count)
        let tileWidth = display.width >= display.height ? 160 : 90
        let tileHeight = max(2, Int((Double(tileWidth) * Double(display.height) / Double(display.width)).rounded()) / 2 * 2)
        return TrickPlayImages(
            image: image, interval: interval, columns: columns, rows: (count + columns - 1) / columns,
            tileWidth: tileWidth, tileHeight: tileHeight, count: count)
    }

    /// Decodes the tiles, writes the sheet and its description into `bundle` and returns the
    /// description's file name; `nil` when no tile decodes (the bundle still plays).
    static func write(of asset: MediaAsset, duration: Double, display: PixelSize, into bundle: URL) async throws -> String? {
        let layout = layout(duration: duration, display: display)
        var generator = ImageGenerator(asset: asset)
        generator.maximumSize = PixelSize(width: layout.tileWidth, height: layout.tileHeight)
        // The frame on screen at a tile's time or shortly after, never one from before it.
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = MediaTime(seconds: layout.interval / 2, preferredTimescale: 1000)
        let times = (0..<layout.count).map { MediaTime(seconds: Double($0) * layout.interval, preferredTimescale: 1000) }

        let sheetWidth = layout.columns * layout.tileWidth
        var pixels = [UInt8](repeating: 0, count: sheetWidth * layout.rows * layout.tileHeight * 3)
        var drawn = 0
        var index = 0
        for await result in generator.images(for: times) {
            defer { index += 1 }
            guard let tile = try? result.image else { continue }
            let left = (index % layout.columns) * layout.tileWidth
            let top = (index / layout.columns) * layout.tileHeight
            let rowBytes = min(layout.tileWidth, tile.width) * 3
            for y in 0..<min(layout.tileHeight, tile.height) {
                let source = y * tile.width * 3
                let target = ((top + y) * sheetWidth + left) * 3
                pixels.replaceSubrange(target..<target + rowBytes, with: tile.pixels[source..<source + rowBytes])
            }
            drawn += 1
        }
        try Task.checkCancellation()
        guard drawn > 0 else { return nil }
        let sheet = VideoImage(width: sheetWidth, height: layout.rows * layout.tileHeight, pixels: pixels)
        let jpeg = try await sheet.encoded(as: .jpeg(quality: 0.7))
        let json = try JSONEncoder().encode(layout)
        try await BlockingWork.run {
            try Data(jpeg).write(to: bundle.appendingPathComponent(image))
            try json.write(to: bundle.appendingPathComponent(description))
        }
        return description
    }
}
