import Foundation
import HLS
import LibraryObjectStorage
import MediaTesting
import Synchronization
import Testing

@testable import Library

/// A job whose publish to the bucket failed (the bucket did not answer) is tried again, and
/// the next attempt publishes the bundle the first one packaged instead of packaging the whole
/// file again.
@Suite("Publishing again after a bucket outage")
struct PublishRetryTests {
    /// A bucket store whose first `publish` fails as an outage, noting the staged playlist's
    /// identity (inode and time) each time it is asked to publish.
    final class FirstPublishFails: MediaStore, @unchecked Sendable {
        let inner: S3MediaStore
        let staged = Mutex<[String]>([])
        init(_ inner: S3MediaStore) { self.inner = inner }

        func publish(assetID: String) async throws {
            let master = inner.stagingFolder(for: assetID).appendingPathComponent(BundleLayout.multivariantPlaylist)
            let attributes = try FileManager.default.attributesOfItem(atPath: master.path)
            let identity = "\(attributes[.systemFileNumber] ?? 0)-\((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
            let first = staged.withLock { list in
                list.append(identity)
                return list.count == 1
            }
            if first { throw ServiceUnavailable(.mediaStorage, detail: "the bucket did not answer (test)") }
            try await inner.publish(assetID: assetID)
        }

        var description: String { inner.description }
        var isLocal: Bool { inner.isLocal }
        func stagingFolder(for assetID: String) -> URL { inner.stagingFolder(for: assetID) }
        func discardStaging() async { await inner.discardStaging() }
        func files(of assetID: String) async throws -> [String] { try await inner.files(of: assetID) }
        func contains(_ path: String, of assetID: String) async -> Bool { await inner.contains(path, of: assetID) }
        func write(_ data: Data, to path: String, of assetID: String) async throws { try await inner.write(data, to: path, of: assetID) }
        func remove(_ path: String, of assetID: String) async throws { try await inner.remove(path, of: assetID) }
        func removeMedia(of assetID: String) async throws { try await inner.removeMedia(of: assetID) }
        func playlistFolder(for assetID: String) async throws -> URL { try await inner.playlistFolder(for: assetID) }
        func localFile(_ path: String, of assetID: String) -> URL? { inner.localFile(path, of: assetID) }
        func info(_ path: String, of assetID: String) async throws -> MediaFileInfo? { try await inner.info(path, of: assetID) }
        func read(_ path: String, of assetID: String, range: ClosedRange<Int>?) async throws -> MediaFileContents? {
            try await inner.read(path, of: assetID, range: range)
        }
        func stream(_ path: String, of assetID: String, range: ClosedRange<Int>?, ifMatch: String?) async throws -> MediaFileStream? {
            try await inner.stream(path, of: assetID, range: range, ifMatch: ifMatch)
        }
        func memoryCopy(_ path: String, of assetID: String) async -> MediaMemoryCopy? { await inner.memoryCopy(path, of: assetID) }
        var directOrigin: String? { inner.directOrigin }
        func directURL(for path: String, of assetID: String) -> URL? { inner.directURL(for: path, of: assetID) }
        func keepSource(_ file: URL, named name: String, id: String) async throws -> String {
            try await inner.keepSource(file, named: name, id: id)
        }
        func fetchSource(_ sourcePath: String, into scratch: URL) async throws -> URL? { try await inner.fetchSource(sourcePath, into: scratch) }
        func ownsSource(_ sourcePath: String) -> Bool { inner.ownsSource(sourcePath) }
        func removeSource(_ sourcePath: String) async throws { try await inner.removeSource(sourcePath) }
        func checkReachable() async throws { try await inner.checkReachable() }
    }

    @Test func theNextAttemptPublishesWhatTheFirstPackaged() async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let data = temp.url.appendingPathComponent("data")
        let bucket = try #require(try await MediaStoreKind.s3.makeStore(data: data) as? S3MediaStore)
        let media = FirstPublishFails(bucket)
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: data), media: media)
        let clip = try await TestClip(seconds: 2).write(to: temp.url.appendingPathComponent("clip.mp4"))
        let asset = try #require(try await library.add(paths: [clip.path]).first)

        await library.worker.drain()
        #expect(try await library.asset(id: asset.id)?.status != .ready)
        #expect(media.staged.withLock { $0.count } == 1)
        // Requeued after its back-off (2 s for a first attempt).
        let deadline = ContinuousClock.now + .seconds(60)
        while try await library.asset(id: asset.id)?.status != .ready, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(500))
            await library.worker.drain()
        }
        #expect(try await library.asset(id: asset.id)?.status == .ready)
        let identities = media.staged.withLock { $0 }
        #expect(identities.count == 2)
        #expect(Set(identities).count == 1, "the second attempt packaged again: \(identities)")
        #expect(try await bucket.files(of: asset.id).contains("master.m3u8"))
    }

    @Test func aChangedSourceIsPackagedAgain() async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let bundle = temp.url.appendingPathComponent("staging/a")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("#EXTM3U\n".utf8).write(to: bundle.appendingPathComponent("master.m3u8"))
        let source = temp.url.appendingPathComponent("film.mp4")
        try Data(count: 100).write(to: source)
        let record = PackagedStaging(bundle: bundle)
        let packaged = PackagedBundle(multivariantPlaylist: "master.m3u8", poster: nil, trickPlay: nil, duration: 2)
        await record.remember(packaged, from: source, sourcePath: source.path, stored: false)
        #expect(await record.bundle(packagedFrom: source, sourcePath: source.path, stored: false) == packaged)
        try Data(count: 101).write(to: source)
        #expect(await record.bundle(packagedFrom: source, sourcePath: source.path, stored: false) == nil)
        await record.remember(packaged, from: source, sourcePath: source.path, stored: false)
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("master.m3u8"))
        #expect(await record.bundle(packagedFrom: source, sourcePath: source.path, stored: false) == nil, "a bundle without its playlist is not whole")
    }
}
