import Foundation
import HLS
import LibraryTesting
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
    final class GatedStore: ForwardingMediaStore, Sendable {
        let inner: any MediaStore
        let started = Mutex(false)
        let open = Mutex(false)
        init(_ folder: FolderMediaStore) { self.inner = folder }

        func publish(assetID: String) async throws {
            started.withLock { $0 = true }
            while !open.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            try await inner.publish(assetID: assetID)
        }
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
