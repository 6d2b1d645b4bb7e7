import BlockingWork
import Foundation
import HLS
import HTTPTypes
import Library
import NIOPosix
import Synchronization

/// Builds playback manifests off the cooperative pool (on NIO's thread pool, since it reads
/// playlists from disk) and keeps each one until its multivariant playlist changes.
final class PlaybackManifestStore: Sendable {
    private let library: MediaLibrary
    private let threadPool: NIOThreadPool
    private let cache = ManifestCache()
    /// Assets playable before the library has them (downloads under way).
    private let provisional: (any ProvisionalAssetSource)?

    init(library: MediaLibrary, threadPool: NIOThreadPool = BlockingWork.threadPool, provisional: (any ProvisionalAssetSource)? = nil) {
        self.library = library
        self.threadPool = threadPool
        self.provisional = provisional
    }

    /// The library asset with this id when it is ready to play, else a provisional one.
    func playableAsset(id: String) async throws -> Asset {
        if let asset = try await library.asset(id: id) {
            guard asset.status == .ready else {
                throw APIError(.conflict, "\(asset.title) is not ready to play yet (\(asset.status.rawValue))")
            }
            return asset
        }
        if let asset = await provisional?.provisionalAsset(id: id) { return asset }
        throw LibraryError.assetNotFound(id)
    }

    func manifest(for asset: Asset) async throws -> PlaybackManifest {
        if let provisional, let manifest = try await provisional.provisionalManifest(id: asset.id) { return manifest }
        let bundle = try await library.media.playlistFolder(for: asset.id)
        let id = asset.id
        let cache = cache
        do {
            return try await threadPool.runIfActive {
                let master = bundle.appendingPathComponent(BundleLayout.multivariantPlaylist)
                let modified = (try? FileManager.default.attributesOfItem(atPath: master.path)[.modificationDate] as? Date) ?? nil
                if let modified, let hit = cache.value(for: id, modified: modified) { return hit }
                let built = try PlaybackManifest.build(assetID: id, bundle: bundle, urlPrefix: "/media/\(id)")
                if let modified { cache.store(built, for: id, modified: modified) }
                return built
            }
        } catch {
            throw APIError(.internalServerError, "The packaged playlists of \(asset.title) could not be read: \(error)")
        }
    }
}

/// Manifests by asset id and playlist modification date.
private final class ManifestCache: Sendable {
    private let entries = Mutex<[String: (Date, PlaybackManifest)]>([:])

    func value(for id: String, modified: Date) -> PlaybackManifest? {
        entries.withLock { entries in
            guard let (date, manifest) = entries[id], date == modified else { return nil }
            return manifest
        }
    }

    func store(_ manifest: PlaybackManifest, for id: String, modified: Date) {
        entries.withLock { $0[id] = (modified, manifest) }
    }
}
