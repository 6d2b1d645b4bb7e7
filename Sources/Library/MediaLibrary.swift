import Foundation

/// The media library: what `marquee serve` and `marquee add` open in a data directory.
///
/// Adding a file, a folder of media or an HLS bundle creates assets and queues ingest jobs;
/// the `IngestWorker` packages them in the background. Sources that vanish are marked
/// missing, never deleted.
public final class MediaLibrary: Sendable {
    public let location: LibraryLocation
    public let store: LibraryStore
    public let worker: IngestWorker
    public let packager: any MediaPackager

    /// File extensions `add` treats as media when walking a folder.
    public static let mediaExtensions: Set<String> = ["mp4", "m4v", "mov", "mkv", "webm", "avi", "ts", "mts", "mpg", "mpeg", "wmv", "flv", "ogv",
                                                      "m4a", "mp3", "aac", "flac", "ogg", "oga", "opus", "wav", "mka"]

    public init(location: LibraryLocation, packager: any MediaPackager = MediaCorePackager()) throws {
        self.location = location
        self.packager = packager
        try FileManager.default.createDirectory(at: location.mediaDirectory, withIntermediateDirectories: true)
        store = try LibraryStore(url: location.databaseURL)
        worker = IngestWorker(store: store, location: location, packager: packager)
    }

    /// Adds files, folders of media, and HLS bundles; returns the new assets (queued for ingest).
    @discardableResult
    public func add(paths: [String], role: Asset.Role = .feature) async throws -> [Asset] {
        let sources = try await BlockingIO.run { try Self.sources(for: paths) }
        var added: [Asset] = []
        for (url, name) in sources {
            let asset = Asset(title: name, sourcePath: url.path, role: role)
            _ = try await store.insert(asset, job: true)
            added.append(asset)
        }
        await worker.wake()
        return added
    }

    /// The media files and bundles the given paths stand for, each with a default title.
    static func sources(for paths: [String]) throws -> [(URL, String)] {
        var sources: [(URL, String)] = []
        for path in paths {
            // An empty or relative path would be read against the server's working directory.
            guard path.hasPrefix("/") else {
                throw LibraryError.invalidRequest("Paths must be absolute paths on the server; got \"\(path.prefix(200))\"")
            }
            let url = URL(fileURLWithPath: path).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw LibraryError.sourceNotFound(path)
            }
            if !isDirectory.boolValue {
                sources.append((url, url.deletingPathExtension().lastPathComponent))
            } else if BundleImporter.multivariantPlaylist(in: url) != nil {
                sources.append((url, url.lastPathComponent))
            } else {
                let found = Self.mediaFiles(in: url)
                guard !found.isEmpty else { throw LibraryError.unsupportedSource(path) }
                sources += found.map { ($0, $0.deletingPathExtension().lastPathComponent) }
            }
        }
        return sources
    }

    static func mediaFiles(in folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var files: [URL] = []
        for case let url as URL in walker where mediaExtensions.contains(url.pathExtension.lowercased()) {
            files.append(url.standardizedFileURL)
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Deletes an asset, its jobs, overrides and packaged files (never its source).
    public func delete(assetID: String) async throws {
        guard try await store.deleteAsset(id: assetID) else { throw LibraryError.assetNotFound(assetID) }
        guard LibraryLocation.isSafeComponent(assetID) else { return }
        let bundle = location.bundleDirectory(for: assetID)
        _ = try? await BlockingIO.run { try FileManager.default.removeItem(at: bundle) }
    }

    /// Marks assets whose source file is gone as missing (and back when it returns).
    public func refreshSourceAvailability() async throws {
        let assets = try await store.assets()
        let present = try await BlockingIO.run {
            Set(assets.compactMap(\.sourcePath).filter { FileManager.default.fileExists(atPath: $0) })
        }
        for var asset in assets {
            guard let path = asset.sourcePath else { continue }
            let missing = !present.contains(path)
            if missing != asset.sourceMissing {
                asset.sourceMissing = missing
                try await store.save(asset)
            }
        }
    }

    /// The URL path of an asset's poster frame, when it has one.
    public func posterPath(for asset: Asset) -> String? {
        let poster = location.bundleDirectory(for: asset.id).appendingPathComponent("poster.jpg")
        return FileManager.default.fileExists(atPath: poster.path) ? "/media/\(asset.id)/poster.jpg" : nil
    }

    /// An asset with its metadata override applied.
    public func displayed(_ asset: Asset) async throws -> DisplayedAsset {
        asset.displayed(with: try await store.override(for: asset.id), defaultArtworkURL: posterPath(for: asset))
    }
}
