import BlockingWork
import Downloads
public import Foundation
import HLS
import HTTPTypes
public import Library
import NIOPosix

/// Playing a download under way: its files as they arrive, and the download as a provisional
/// asset for the player (see `ProvisionalAssetSource`).
extension DownloadService {
    /// Where a file of a download's bundle stands.
    public enum FileAvailability: Sendable {
        case present(URL)
        /// Not on disk yet, but the download may still bring it.
        case pending
        case gone(String)
    }

    public func file(_ relativePath: String, of id: String) async -> FileAvailability {
        guard let entry = entries[id] else { return .gone("No download \(id)") }
        let staged = store.bundle(for: id).appendingPathComponent(relativePath)
        let library: URL?
        if case .finished(let assetID) = entry.lifecycle.state { library = importer.bundleFile(relativePath, of: assetID) } else { library = nil }
        let found = try? await BlockingWork.run { () -> URL? in
            if FileManager.default.fileExists(atPath: staged.path) { return staged }
            if let library, FileManager.default.fileExists(atPath: library.path) { return library }
            return nil
        }
        if let found = found ?? nil { return .present(found) }
        switch entry.lifecycle.state {
        case .queued, .downloading, .paused, .importing: return .pending
        case .finished: return .gone("No such file in “\(entry.record.title)”")
        case .failed(let reason): return .gone("The download failed before this part arrived: \(reason)")
        case .cancelled: return .gone("The download was cancelled")
        }
    }

    func isPlayable(_ entry: Entry) -> Bool {
        guard entry.record.figures.totalFiles > 0 else { return false }
        switch entry.lifecycle.state {
        case .queued, .downloading, .paused, .importing: return true
        case .finished, .failed, .cancelled: return false
        }
    }
}

extension DownloadService: ProvisionalAssetSource {
    public func provisionalAsset(id: String) async -> Asset? {
        guard let entry = entries[id], isPlayable(entry) else { return nil }
        return Asset(id: id, title: entry.record.title, status: .ready)
    }

    public func provisionalManifest(id: String) async throws -> PlaybackManifest? {
        guard let entry = entries[id] else { return nil }
        guard isPlayable(entry) else {
            throw APIError(.conflict, "Nothing of “\(entry.record.title)” can be played yet (\(entry.record.state.name))")
        }
        let bundle = store.bundle(for: id)
        do {
            return try await BlockingWork.run {
                // Downloads started before the shared layout named their root playlist index.m3u8.
                let playlist =
                    BundleLayout.multivariantCandidates.first {
                        FileManager.default.fileExists(atPath: bundle.appendingPathComponent($0).path)
                    } ?? BundleLayout.multivariantPlaylist
                return try PlaybackManifest.build(assetID: id, bundle: bundle, urlPrefix: "/api/downloads/\(id)/files", playlist: playlist)
            }
        } catch {
            throw APIError(.internalServerError, "The playlists of “\(entry.record.title)” could not be read: \(error)")
        }
    }
}
