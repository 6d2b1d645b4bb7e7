import BlockingWork
import Foundation
import HLS

/// Writes an asset's added subtitle files into its published media: a rendition and media
/// playlist per file, the multivariant playlist rewritten to list them, added files no longer
/// wanted removed, and the CC badge set to what the playlist now carries. Shared by the
/// library (a file added to or removed from a ready asset) and the ingest worker (a file added
/// while the asset was being packaged, after the bundle had taken the list).
enum SubtitlePublishing {
    static func publish(assetID: String, duration: Double, store: any LibraryStore, media: any MediaStore) async throws {
        let files = try await store.subtitleFiles(for: assetID)
        let folder = try await media.playlistFolder(for: assetID)
        let master = try await BlockingWork.run {
            try String(contentsOf: folder.appendingPathComponent(BundleLayout.multivariantPlaylist), encoding: .utf8)
        }
        let written = try AddedSubtitleRenditions.files(for: files, multivariant: master, duration: duration)
        for (path, data) in written { try await media.write(data, to: path, of: assetID) }
        let kept = Set(written.map(\.path))
        for path in try await media.files(of: assetID) where AddedSubtitleRenditions.isAddedFile(path) && !kept.contains(path) {
            try? await media.remove(path, of: assetID)
        }
        // The CC badge (the library's filter finds items by it) follows the playlist as it is
        // now: earned with an added file, gone with the last one unless the media has its own.
        let published = written.first { $0.path == BundleLayout.multivariantPlaylist }.map { String(decoding: $0.data, as: UTF8.self) } ?? master
        let captioned = BadgeInspector.badges(multivariant: published).contains("CC")
        if var current = try await store.asset(id: assetID), current.badges.contains("CC") != captioned {
            if captioned { current.badges.append("CC") } else { current.badges.removeAll { $0 == "CC" } }
            try await store.save(current)
        }
    }
}
