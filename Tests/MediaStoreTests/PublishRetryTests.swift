import Foundation
import HLS
import LibraryObjectStorage
import LibraryTesting
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
    final class FirstPublishFails: ForwardingMediaStore, Sendable {
        let bucket: S3MediaStore
        var inner: any MediaStore { bucket }
        let staged = Mutex<[String]>([])
        init(_ bucket: S3MediaStore) { self.bucket = bucket }

        func publish(assetID: String) async throws {
            let master = bucket.stagingFolder(for: assetID).appendingPathComponent(BundleLayout.multivariantPlaylist)
            let attributes = try FileManager.default.attributesOfItem(atPath: master.path)
            let identity = "\(attributes[.systemFileNumber] ?? 0)-\((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
            let first = staged.withLock { list in
                list.append(identity)
                return list.count == 1
            }
            if first { throw ServiceUnavailable(.mediaStorage, detail: "the bucket did not answer (test)") }
            try await inner.publish(assetID: assetID)
        }
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
