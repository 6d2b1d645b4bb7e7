import Foundation
import LibraryObjectStorage
import ObjectStorage
import ServiceTesting
import Testing

@testable import Library

/// A server node keeps the segments it served from the bucket in memory, within a byte budget,
/// and never serves a segment of a bundle that has since been published again.
@Suite("Hot media cache")
struct HotMediaCacheTests {
    func entry(_ count: Int, generation: String = "g1") -> HotMediaCache.Entry {
        HotMediaCache.Entry(data: pattern(count), eTag: "\"e\(count)\"", generation: generation)
    }

    @Test func theLeastRecentlyUsedGoFirstAndTheBudgetHolds() {
        let cache = HotMediaCache(capacity: 1000, largestFile: 600)
        cache.keep(entry(400), as: "a")
        cache.keep(entry(400), as: "b")
        _ = cache.entry("a", generation: "g1")  // a is now used more recently than b
        cache.keep(entry(400), as: "c")
        #expect(cache.entry("b", generation: "g1") == nil)
        #expect(cache.entry("a", generation: "g1")?.data == pattern(400))
        #expect(cache.entry("c", generation: "g1") != nil)
        #expect(cache.usage.bytes == 800)
        cache.keep(entry(700), as: "too-big")
        #expect(cache.entry("too-big", generation: "g1") == nil)
    }

    @Test func anEntryOfAnotherGenerationIsDroppedAndForgettingTakesAPrefix() {
        let cache = HotMediaCache(capacity: 10_000)
        cache.keep(entry(100), as: "media/x/video/1.m4s")
        cache.keep(entry(100), as: "media/x/video/2.m4s")
        cache.keep(entry(100), as: "media/y/video/1.m4s")
        #expect(cache.entry("media/x/video/1.m4s", generation: "g2") == nil)
        #expect(cache.entry("media/x/video/1.m4s", generation: "g1") == nil)  // dropped, not kept for later
        cache.forget(prefix: "media/x/")
        #expect(cache.usage.entries == 1)
        let none = HotMediaCache(capacity: 0)
        none.keep(entry(10), as: "k")
        #expect(none.usage.entries == 0)
    }

    /// Two nodes on one bucket: the second serves a segment from memory after its first read,
    /// a range from that copy, and the new bytes as soon as the first node re-publishes.
    @Test func aNodeServesHotSegmentsFromMemoryUntilTheBundleIsPublishedAgain() async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let server = try await ThrowawaySeaweedFS.shared.server()
        let location = S3Location(
            bucket: await ThrowawaySeaweedFS.shared.makeBucketName(), prefix: "media", endpoint: server.endpoint, region: server.region,
            accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey)
        func node(_ name: String) -> S3MediaStore {
            S3MediaStore(location: location, workDirectory: temp.url.appendingPathComponent(name), freshness: .zero)
        }
        let (publisher, serving) = (node("a"), node("b"))
        try await publisher.client.createBucket()
        let master = Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nvideo/index.m3u8\n".utf8)
        try stage(["master.m3u8": master, "video/seg1.m4s": pattern(200_000)], in: publisher.stagingFolder(for: "a"))
        try await publisher.publish(assetID: "a")

        #expect(try await bytes(serving, "video/seg1.m4s") == pattern(200_000))
        let afterFirst = serving.hotFiles.usage
        #expect(afterFirst.entries == 1 && afterFirst.bytes == 200_000)
        #expect(try await bytes(serving, "video/seg1.m4s") == pattern(200_000))
        #expect(serving.hotFiles.usage.hits == afterFirst.hits + 1)
        let part = try #require(try await serving.stream("video/seg1.m4s", of: "a", range: 1000...1999, ifMatch: nil))
        #expect(part.range == 1000...1999 && part.totalSize == 200_000)
        #expect(try await collect(part) == pattern(200_000).subdata(in: 1000..<2000))
        #expect(try await serving.info("video/seg1.m4s", of: "a")?.size == 200_000)

        // Published again elsewhere, with other bytes and another master: the copy is not used.
        let newMaster = Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000\nvideo/index.m3u8\n".utf8)
        try stage(["master.m3u8": newMaster, "video/seg1.m4s": pattern(200_000, seed: 9)], in: publisher.stagingFolder(for: "a"))
        try await publisher.publish(assetID: "a")
        #expect(try await bytes(serving, "video/seg1.m4s") == pattern(200_000, seed: 9))
        #expect(try await bytes(serving, "video/seg1.m4s") == pattern(200_000, seed: 9))
    }

    func bytes(_ store: S3MediaStore, _ path: String) async throws -> Data {
        try await collect(try #require(try await store.stream(path, of: "a", range: nil, ifMatch: nil)))
    }

    func collect(_ stream: MediaFileStream) async throws -> Data {
        var data = Data()
        for try await chunk in stream.chunks { data.append(chunk) }
        return data
    }
}
