import BlockingWork
public import Foundation
import HLS
import Logging
import Synchronization

/// The media library: what `marquee serve` and `marquee add` open in a data directory.
///
/// Adding a file, a folder of media or an HLS bundle creates assets and queues ingest jobs;
/// the `IngestWorker` packages them in the background. Sources that vanish are marked
/// missing, never deleted.
public final class MediaLibrary: Sendable {
    /// Where the library reports what it could not tidy up (the server's log).
    static let logger = Logger(label: "marquee.library")

    public let location: LibraryLocation
    /// The rows: SQLite in the data directory by default, or any other `LibraryStore` (PostgreSQL).
    public let store: any LibraryStore
    public let worker: IngestWorker
    public let packager: any BundlePackaging
    /// Where packaged media is published: the media folder by default, or object storage.
    public let media: any MediaStore
    /// Resumable uploads from the web page, streamed into the data directory.
    public let uploads: UploadStore
    /// How long a deleted asset stays restorable before `purgeTrash` removes it for good.
    public let trashRetention: TimeInterval
    private let housekeeping = Mutex<Task<Void, Never>?>(nil)
    /// Set while `addSamplesIfEmpty` is making the sample clips for an empty library.
    let makingSamples = Mutex(false)
    /// Rewrites of an asset's playlist for its added subtitle files, one at a time per asset.
    let subtitlePublishing = KeyedSerialQueue()

    /// File extensions `add` treats as media when walking a folder.
    public static let mediaExtensions: Set<String> = [
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "ts", "mts", "mpg", "mpeg", "wmv", "flv", "ogv",
        "m4a", "mp3", "aac", "flac", "ogg", "oga", "opus", "wav", "mka",
    ]

    public init(
        location: LibraryLocation, packager: any BundlePackaging = BundlePackager(), trashRetention: TimeInterval = 30,
        ingestStallLimit: Duration = .seconds(600), store: (any LibraryStore)? = nil,
        workerLease: Duration = .seconds(30), workerID: String = IngestWorker.defaultWorkerID(), media: (any MediaStore)? = nil
    ) throws {
        self.location = location
        self.packager = packager
        let media = media ?? FolderMediaStore(location: location)
        self.media = media
        self.trashRetention = trashRetention
        uploads = UploadStore(directory: location.uploadsDirectory, finishedDirectory: location.uploadedSourcesDirectory)
        try FileManager.default.createDirectory(at: location.mediaDirectory, withIntermediateDirectories: true)
        let store = try store ?? SQLiteLibraryStore(url: location.databaseURL)
        self.store = store
        worker = IngestWorker(
            store: store, location: location, packager: packager, stallLimit: ingestStallLimit,
            lease: workerLease, workerID: workerID, media: media)
    }

    /// Adds files, folders of media, and HLS bundles; returns the new assets (queued for ingest).
    @discardableResult
    public func add(paths: [String], role: Asset.Role = .feature) async throws -> [Asset] {
        let sources = try await BlockingWork.run { try Self.sources(for: paths) }
        var added: [Asset] = []
        for (url, name) in sources {
            let asset = Asset(title: name, sourcePath: url.path, role: role, episode: EpisodeParser.parse(path: url.path))
            _ = try await store.insert(asset, job: true)
            if SourceFileKind.of(url) == .regularFile { await addSidecarSubtitles(of: url, to: asset.id) }
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
            let kind = SourceFileKind.of(url)
            switch kind {
            case .missing: throw LibraryError.sourceNotFound(path)
            case .other(let what): throw SourceFileKind.refusal(path, what)
            case .regularFile, .directory: break
            }
            if kind == .regularFile {
                sources.append((url, url.deletingPathExtension().lastPathComponent))
            } else if BundleImporter.multivariantPlaylist(in: url) != nil {
                sources.append((url, url.lastPathComponent))
            } else {
                guard let found = Self.mediaFiles(in: url, limit: Self.maximumFolderEntries) else {
                    throw LibraryError.folderTooLarge(path, limit: Self.maximumFolderEntries)
                }
                guard !found.isEmpty else { throw LibraryError.unsupportedSource(path) }
                sources += found.map { ($0, $0.deletingPathExtension().lastPathComponent) }
            }
        }
        return sources
    }

    /// The most entries (files and folders, at any depth) a folder to add may hold.
    static let maximumFolderEntries = 100_000

    /// The media files in `folder`, at any depth; nil when it holds more than `limit` entries.
    static func mediaFiles(in folder: URL, limit: Int = .max) -> [URL]? {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var files: [URL] = []
        var entries = 0
        // Only regular files: a FIFO or device named like a video would block ingest.
        for case let url as URL in walker {
            entries += 1
            if entries > limit { return nil }
            if mediaExtensions.contains(url.pathExtension.lowercased()) && SourceFileKind.of(url) == .regularFile {
                files.append(url.standardizedFileURL)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Adds a file or HLS bundle folder that this server made (an offline download) and that
    /// workers on other machines must be able to read: kept in object storage when the media
    /// are there (and removed with the asset), else added where it is, as `add(paths:)` does.
    @discardableResult
    public func add(keeping source: URL, role: Asset.Role = .feature) async throws -> Asset {
        guard !media.isLocal else {
            guard let asset = try await add(paths: [source.path], role: role).first else { throw LibraryError.unsupportedSource(source.path) }
            return asset
        }
        let (url, name) = try await BlockingWork.run { try Self.sources(for: [source.path]) }.first ?? (source, source.lastPathComponent)
        guard url.standardizedFileURL.path == source.standardizedFileURL.path else { throw LibraryError.unsupportedSource(source.path) }
        let kept = try await media.keepSource(url, named: url.lastPathComponent, id: UUID().uuidString.lowercased())
        let asset = Asset(title: name, sourcePath: kept, role: role, episode: EpisodeParser.parse(path: url.path))
        _ = try await store.insert(asset, job: true)
        await worker.wake()
        return asset
    }

    /// Adds a finished upload as a new asset (queued for ingest), titled by its file name.
    @discardableResult
    public func addUpload(id: String) async throws -> Asset {
        let (file, upload) = try await uploads.finish(id: id)
        let sourcePath = try await media.keepSource(file, named: upload.fileName, id: id)
        if media.ownsSource(sourcePath) {
            // The store has it now (a worker on another machine fetches it from there).
            let folder = file.deletingLastPathComponent()
            _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: folder) }
        }
        let asset = Asset(
            title: file.deletingPathExtension().lastPathComponent, sourcePath: sourcePath, role: upload.role,
            episode: EpisodeParser.parse(fileName: upload.fileName))
        _ = try await store.insert(asset, job: true)
        await worker.wake()
        return asset
    }

    /// Deletes an asset for good: its jobs, overrides and packaged files, and its source when
    /// the source is an upload the library keeps (never a file it was pointed at).
    public func delete(assetID: String) async throws {
        await worker.cancel(assetID: assetID)
        guard let asset = try await store.asset(id: assetID, includingTrashed: true),
            try await store.deleteAsset(id: assetID)
        else { throw LibraryError.assetNotFound(assetID) }
        await removeFiles(of: asset)
    }

    /// Moves an asset to the trash (hidden at once, restorable for `trashRetention`).
    public func trash(assetID: String) async throws {
        guard try await store.trash(id: assetID) else { throw LibraryError.assetNotFound(assetID) }
    }

    /// Brings a deleted asset back, if the trash has not been purged yet.
    public func restore(assetID: String) async throws -> Asset {
        guard try await store.restore(id: assetID), let asset = try await store.asset(id: assetID) else {
            throw LibraryError.assetNotFound(assetID)
        }
        return asset
    }

    /// Deletes for good what was put in the trash at or before `cutoff` (default: longer ago
    /// than `trashRetention`), except assets whose job is still running (purged next time).
    @discardableResult
    public func purgeTrash(before cutoff: Date? = nil) async throws -> [String] {
        var purged: [String] = []
        for asset in try await store.trashedAssets(before: cutoff ?? Date().addingTimeInterval(-trashRetention)) {
            if try await store.jobs(assetID: asset.id).contains(where: { $0.state == .running }) {
                await worker.cancel(assetID: asset.id)  // purged next time, once its job has stopped
                continue
            }
            if try await store.deleteAsset(id: asset.id) {
                await removeFiles(of: asset)
                purged.append(asset.id)
            }
        }
        return purged
    }

    private func removeFiles(of asset: Asset) async {
        var doomed: [URL] = []
        do {
            try await media.removeMedia(of: asset.id)
            if let source = asset.sourcePath, media.ownsSource(source) { try await media.removeSource(source) }
        } catch {
            Self.logger.error("could not remove the media of asset \(asset.id) from \(media): \(error)")
        }
        if let source = asset.sourcePath.map({ URL(fileURLWithPath: $0).standardizedFileURL }) {
            let uploaded = location.uploadedSourcesDirectory.standardizedFileURL.path + "/"
            if source.path.hasPrefix(uploaded) {
                doomed.append(source.deletingLastPathComponent())
            }
        }
        let removals = doomed
        _ = try? await BlockingWork.run { for url in removals { try? FileManager.default.removeItem(at: url) } }
    }

    /// Starts the library's background chores: purging the trash every few seconds and
    /// removing uploads abandoned for `abandonedUploadAge` (checked at start and hourly).
    public func startHousekeeping(abandonedUploadAge: TimeInterval = 24 * 3600) {
        housekeeping.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in
                var lastUploadSweep = Date.distantPast
                while !Task.isCancelled, let self {
                    _ = try? await self.purgeTrash()
                    if Date().timeIntervalSince(lastUploadSweep) > 3600 {
                        lastUploadSweep = Date()
                        _ = try? await self.uploads.removeAbandoned(untouchedSince: Date().addingTimeInterval(-abandonedUploadAge))
                    }
                    try? await Task.sleep(for: .seconds(max(1, min(5, self.trashRetention / 3))))
                }
            }
        }
    }

    public func stopHousekeeping() {
        housekeeping.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    /// Stores an image as the asset's artwork (in its bundle folder, replacing an earlier
    /// one) and points its metadata override at it.
    public func setArtwork(_ image: Data, fileExtension: String, for assetID: String) async throws {
        guard LibraryLocation.isSafeComponent(assetID), LibraryLocation.isSafeComponent(fileExtension) else {
            throw LibraryError.assetNotFound(assetID)
        }
        let name = "artwork-\(Int(Date().timeIntervalSince1970 * 1000)).\(fileExtension)"
        for old in try await media.files(of: assetID) where old.hasPrefix("artwork-") {
            try? await media.remove(old, of: assetID)
        }
        try await media.write(image, to: name, of: assetID)
        var override = try await store.override(for: assetID) ?? MetadataOverride(assetID: assetID)
        override.artworkURL = "/media/\(assetID)/\(name)"
        try await store.setOverride(override)
    }

    // MARK: Shelf

    /// Every visible asset with overrides applied, newest first, optionally searched.
    public func displayedAssets(matching query: String? = nil) async throws -> [DisplayedAsset] {
        let assets = try await store.assets(matching: query)
        let overrides = try await store.overrides(for: assets.map(\.id))
        let posters = try await posterPaths(for: assets)
        return assets.map { $0.displayed(with: overrides[$0.id], defaultArtworkURL: posters[$0.id]) }
    }

    /// The library page's items: features (never interstitials, which only play inside
    /// another item), filtered to those carrying every one of `badges`, episodes grouped
    /// into series, in `order`.
    public func shelf(matching query: String? = nil, order: ShelfOrder = .recentlyAdded, badges: [String] = []) async throws -> [ShelfItem] {
        let wanted = Set(badges.map { $0.lowercased() })
        let shown = try await displayedAssets(matching: query).filter { item in
            item.asset.role == .feature && wanted.isSubset(of: Set(item.asset.badges.map { $0.lowercased() }))
        }
        return SeriesGrouping.shelf(shown, order: order)
    }

    /// The episode that follows `assetID` in its series, if any.
    public func nextEpisode(after assetID: String) async throws -> DisplayedAsset? {
        let all = try await displayedAssets().filter { $0.asset.role == .feature }
        return SeriesGrouping.episode(after: assetID, in: all)
    }

    /// Marks assets whose source file is gone as missing (and back when it returns).
    public func refreshSourceAvailability() async throws {
        let assets = try await store.assets()
        let present = try await BlockingWork.run {
            Set(assets.compactMap(\.sourcePath).filter { FileManager.default.fileExists(atPath: $0) })
        }
        for var asset in assets {
            // A source kept in object storage is not a local file.
            guard let path = asset.sourcePath, !media.ownsSource(path) else { continue }
            let missing = !present.contains(path)
            if missing != asset.sourceMissing {
                asset.sourceMissing = missing
                try await store.save(asset)
            }
        }
    }

    /// The URL paths of the poster frames of `assets` that have one, by asset id. In a media
    /// folder the bundles are looked at in one batch on `BlockingWork`'s threads, never on the
    /// caller's; in object storage, from each ready asset's listing (a poster is there once the
    /// asset is published, not before).
    public func posterPaths(for assets: [Asset]) async throws -> [String: String] {
        guard media.isLocal else {
            return await withTaskGroup(of: (String, Bool).self) { group in
                for asset in assets where asset.status == .ready {
                    group.addTask { (asset.id, await self.media.contains(BundleLayout.poster, of: asset.id)) }
                }
                var found: [String: String] = [:]
                for await (id, present) in group where present { found[id] = "/media/\(id)/\(BundleLayout.poster)" }
                return found
            }
        }
        let location = location
        let ids = assets.map(\.id)
        return try await BlockingWork.run {
            var found: [String: String] = [:]
            for id in ids where FileManager.default.fileExists(atPath: location.bundleDirectory(for: id).appendingPathComponent(BundleLayout.poster).path) {
                found[id] = "/media/\(id)/\(BundleLayout.poster)"
            }
            return found
        }
    }

    /// An asset with its metadata override applied.
    public func displayed(_ asset: Asset) async throws -> DisplayedAsset {
        asset.displayed(with: try await store.override(for: asset.id), defaultArtworkURL: try await posterPaths(for: [asset])[asset.id])
    }
}
