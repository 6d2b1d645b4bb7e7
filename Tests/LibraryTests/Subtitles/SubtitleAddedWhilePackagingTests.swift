import Foundation
import HLS
import MediaTesting
import Synchronization
import Testing

@testable import Library

/// A subtitle file added while its item is being packaged — after the bundle took the list of
/// files, before the item is ready (the library then publishes nothing) — is published by the
/// worker once the item is ready, instead of waiting for the next edit.
@Suite("A subtitle file added while the item is packaged")
struct SubtitleAddedWhilePackagingTests {
    /// A folder store whose `publish` waits until the test opens the gate (a bucket upload
    /// that takes a while), telling the test when it has started.
    final class GatedStore: MediaStore, Sendable {
        let folder: FolderMediaStore
        let started = Mutex(false)
        let open = Mutex(false)
        init(_ folder: FolderMediaStore) { self.folder = folder }

        var description: String { "gated \(folder)" }
        var isLocal: Bool { folder.isLocal }
        func stagingFolder(for assetID: String) -> URL { folder.stagingFolder(for: assetID) }
        func discardStaging() async { await folder.discardStaging() }
        func publish(assetID: String) async throws {
            started.withLock { $0 = true }
            while !open.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            try await folder.publish(assetID: assetID)
        }
        func files(of assetID: String) async throws -> [String] { try await folder.files(of: assetID) }
        func contains(_ path: String, of assetID: String) async -> Bool { await folder.contains(path, of: assetID) }
        func write(_ data: Data, to path: String, of assetID: String) async throws { try await folder.write(data, to: path, of: assetID) }
        func remove(_ path: String, of assetID: String) async throws { try await folder.remove(path, of: assetID) }
        func removeMedia(of assetID: String) async throws { try await folder.removeMedia(of: assetID) }
        func playlistFolder(for assetID: String) async throws -> URL { try await folder.playlistFolder(for: assetID) }
        func localFile(_ path: String, of assetID: String) -> URL? { folder.localFile(path, of: assetID) }
        func info(_ path: String, of assetID: String) async throws -> MediaFileInfo? { try await folder.info(path, of: assetID) }
        func read(_ path: String, of assetID: String, range: ClosedRange<Int>?) async throws -> MediaFileContents? {
            try await folder.read(path, of: assetID, range: range)
        }
        func stream(_ path: String, of assetID: String, range: ClosedRange<Int>?, ifMatch: String?) async throws -> MediaFileStream? {
            try await folder.stream(path, of: assetID, range: range, ifMatch: ifMatch)
        }
        func memoryCopy(_ path: String, of assetID: String) async -> MediaMemoryCopy? { await folder.memoryCopy(path, of: assetID) }
        var directOrigin: String? { folder.directOrigin }
        func directURL(for path: String, of assetID: String) -> URL? { folder.directURL(for: path, of: assetID) }
        func keepSource(_ file: URL, named name: String, id: String) async throws -> String { try await folder.keepSource(file, named: name, id: id) }
        func fetchSource(_ sourcePath: String, into scratch: URL) async throws -> URL? { try await folder.fetchSource(sourcePath, into: scratch) }
        func ownsSource(_ sourcePath: String) -> Bool { folder.ownsSource(sourcePath) }
        func removeSource(_ sourcePath: String) async throws { try await folder.removeSource(sourcePath) }
    }

    /// Packages any file into a bundle with one variant (a playlist added renditions can join).
    struct OneVariantPackager: BundlePackaging {
        func probe(_ source: URL) async throws -> MediaProbe {
            MediaProbe(duration: 2, width: 16, height: 16, audioTracks: [], subtitleTracks: [])
        }
        func package(
            _ source: URL, probe: MediaProbe, into bundle: URL, progress: @escaping @Sendable (PackagingProgress) async -> Void
        ) async throws -> PackagedBundle {
            let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000,RESOLUTION=16x16\nv0/index.m3u8\n"
            try Data(master.utf8).write(to: bundle.appendingPathComponent(BundleLayout.multivariantPlaylist))
            await progress(PackagingProgress(.packagingVideo, 1))
            return PackagedBundle(multivariantPlaylist: BundleLayout.multivariantPlaylist, poster: nil, trickPlay: nil)
        }
        func decorate(bundle: URL, duration: Double, artwork: String?) async throws -> PackagedBundle {
            PackagedBundle(multivariantPlaylist: BundleLayout.multivariantPlaylist, poster: nil, trickPlay: nil)
        }
    }

    @Test func itIsPublishedOnceTheItemIsReady() async throws {
        let root = try ScratchFolder.make("subtitle-while-packaging")
        defer { try? FileManager.default.removeItem(at: root) }
        let location = LibraryLocation(dataDirectory: root.appendingPathComponent("data"))
        let gated = GatedStore(FolderMediaStore(location: location))
        let library = try MediaLibrary(location: location, packager: OneVariantPackager(), media: gated)
        try Data("x".utf8).write(to: root.appendingPathComponent("item.mp4"))
        let asset = try await library.add(paths: [root.appendingPathComponent("item.mp4").path])[0]
        let draining = Task { await library.worker.drain() }
        try await eventually("the bundle to be publishing", pollingEvery: .milliseconds(10)) { gated.started.withLock { $0 } }

        // The bundle has taken the (empty) list of files; the item is not ready, so adding
        // publishes nothing yet.
        let file = try await library.addSubtitleFile(Data("1\n00:00:00,000 --> 00:00:01,000\nHello\n".utf8), to: asset.id, language: "en", label: nil)
        #expect(try await library.store.asset(id: asset.id)?.status != .ready)
        gated.open.withLock { $0 = true }
        await draining.value

        #expect(try await library.store.asset(id: asset.id)?.status == .ready)
        let master = try String(
            contentsOf: try await gated.playlistFolder(for: asset.id).appendingPathComponent(BundleLayout.multivariantPlaylist), encoding: .utf8)
        #expect(master.contains("subtitles/\(file.id).m3u8"), "\(master)")
        #expect(try await gated.files(of: asset.id).contains("subtitles/\(file.id).vtt"))
        #expect(try await library.store.asset(id: asset.id)?.badges.contains("CC") == true)
    }
}
