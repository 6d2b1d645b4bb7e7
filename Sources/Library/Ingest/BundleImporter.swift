import Foundation
import HLS

/// Copies an HLS bundle (a folder with a multivariant playlist, such as an offline download)
/// into the library — only the files its playlists name (`BundleContents`) — naming its entry playlist `master.m3u8`, and reads the title and
/// artwork a `marquee download` recorded in its `metadata.json`.
struct BundleImporter: Sendable {
    struct Imported: Sendable {
        var duration: Double?
        var width: Int?
        var height: Int?
        /// From a Marquee download's `metadata.json`: its title and artwork file.
        var title: String?
        var artwork: String?
    }

    func importBundle(at given: URL, into bundle: URL) throws -> Imported {
        // A linked bundle folder is read where it really is; what is copied is decided below.
        let source = given.standardizedFileURL.resolvingSymlinksInPath()
        guard let entry = Self.multivariantPlaylist(in: source) else {
            throw LibraryError.unsupportedSource(source.path)
        }
        let contents: BundleContents
        do {
            contents = try BundleContents.find(root: source, entry: entry.lastPathComponent)
        } catch let failure as BundleContents.Failure {
            throw LibraryError.unsafeBundle(source.path, reason: failure.description)
        }
        // Only the bundle's own files, each copied as a regular file: never a link, never the
        // rest of the folder (a live folder would otherwise be published as it changes).
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for file in contents.files {
            let target = bundle.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source.appendingPathComponent(file), to: target)
        }
        let master = bundle.appendingPathComponent(BundleLayout.multivariantPlaylist)
        if entry.lastPathComponent != BundleLayout.multivariantPlaylist {
            try? FileManager.default.removeItem(at: master)
            try FileManager.default.copyItem(at: bundle.appendingPathComponent(entry.lastPathComponent), to: master)
        }
        let text = try String(contentsOf: master, encoding: .utf8)
        let variants = PlaylistParser.parse(text).playlist?.multivariant?.variants ?? []
        var imported = Imported()
        if let data = try? Data(contentsOf: bundle.appendingPathComponent(BundleLayout.metadata)),
            let metadata = try? BundleMetadata.decode(from: data)
        {
            imported.title = metadata.title
            imported.artwork = metadata.artwork
        }
        if let best = variants.max(by: { ($0.attributes.resolution?.height ?? 0) < ($1.attributes.resolution?.height ?? 0) }) {
            imported.width = best.attributes.resolution?.width
            imported.height = best.attributes.resolution?.height
            if let media = try? String(contentsOf: bundle.appendingPathComponent(best.uri), encoding: .utf8) {
                imported.duration = PlaylistParser.parse(media).playlist?.media?.duration
            }
        }
        return imported
    }

    /// The folder's multivariant playlist: `master.m3u8`, a download's legacy `index.m3u8`, or
    /// the first playlist with variants.
    static func multivariantPlaylist(in folder: URL) -> URL? {
        let master = folder.appendingPathComponent(BundleLayout.multivariantPlaylist)
        if FileManager.default.fileExists(atPath: master.path) { return master }
        for name in BundleLayout.legacyMultivariantPlaylists {
            let candidate = folder.appendingPathComponent(name)
            if (try? String(contentsOf: candidate, encoding: .utf8))?.contains("#EXT-X-STREAM-INF") ?? false { return candidate }
        }
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension.lowercased() == "m3u8" }.sorted { $0.path < $1.path }.first { url in
            (try? String(contentsOf: url, encoding: .utf8))?.contains("#EXT-X-STREAM-INF") ?? false
        }
    }
}
