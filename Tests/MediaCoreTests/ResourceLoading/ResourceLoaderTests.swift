import Foundation
import MediaTesting
import Testing

@testable import MediaCore

/// A loader that fails every read after the first `allowed` ones, like a store going away.
struct FailingResourceLoader: ResourceLoader {
    struct StoreUnavailable: Error, Equatable {}
    let base: MemoryResourceLoader
    let failFromOffset: Int64
    var resourceDescription: String { "failing store" }
    var entireLengthAvailableOnDemand: Bool { true }
    func contentLength() async throws -> Int64 { try await base.contentLength() }
    func read(offset: Int64, length: Int) async throws -> [UInt8] {
        if offset + Int64(length) > failFromOffset { throw StoreUnavailable() }
        return try await base.read(offset: offset, length: length)
    }
}

@Suite struct ResourceLoaderTests {
    @Test(arguments: [true, false])
    func fileLoaderReadsTheSameWithAndWithoutReadAhead(onDemand: Bool) async throws {
        let path = try await MediaFixtures.shared.counter()
        let loaderAsset = MediaAsset(resourceLoader: try FileResourceLoader(path: path, entireLengthAvailableOnDemand: onDemand))
        let (duration, tracks) = try await loaderAsset.load(.duration, .tracks)
        let (fileDuration, fileTracks) = try await MediaAsset(path: path).load(.duration, .tracks)
        #expect(duration == fileDuration)
        #expect(tracks == fileTracks)
        var generator = ImageGenerator(asset: loaderAsset)
        generator.setTolerance(.zero)
        var reference = ImageGenerator(asset: MediaAsset(path: path))
        reference.setTolerance(.zero)
        let times = [0.4, 3.3, 9.7].map { MediaTime(seconds: $0) }
        var mine: [VideoImage] = []
        var theirs: [VideoImage] = []
        for await result in generator.images(for: times) { mine.append(try result.image) }
        for await result in reference.images(for: times) { theirs.append(try result.image) }
        #expect(mine == theirs)
    }

    @Test func readAheadCacheServesArbitraryRanges() async throws {
        let bytes = (0..<(3 << 20) + 123).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 11)) }
        let cache = ReadAheadCache(loader: MemoryResourceLoader(bytes: bytes), chunkSize: 1 << 20, readAheadChunks: 2)
        for (offset, length) in [(0, 10), (1_048_570, 6), (1_048_575, 100), (3 << 20, 123), (2_000_000, 65_536), (5, 1)] {
            var collected: [UInt8] = []
            var position = offset
            while collected.count < length {
                let piece = try await cache.read(offset: Int64(position), length: length - collected.count, contentLength: Int64(bytes.count))
                if piece.isEmpty { break }
                collected += piece
                position += piece.count
            }
            #expect(collected == Array(bytes[offset..<min(bytes.count, offset + length)]))
        }
    }

    @Test func aLoaderErrorReachesTheCallerAsItself() async throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: try await MediaFixtures.shared.counter())))
        let asset = MediaAsset(resourceLoader: FailingResourceLoader(base: MemoryResourceLoader(bytes: bytes), failFromOffset: 0))
        await #expect(throws: FailingResourceLoader.StoreUnavailable.self) { try await asset.load(.tracks) }
    }

    @Test func statusIsLoadingWhileASlowLoaderIsRead() async throws {
        let path = try await MediaFixtures.shared.counter()
        let loader = SlowResourceLoader(base: try FileResourceLoader(path: path), delay: .milliseconds(150))
        let asset = MediaAsset(resourceLoader: loader)
        let task = Task { try await asset.load(.duration) }
        try await eventually("the load to read") { loader.reads >= 1 }
        guard case .loading = asset.status(of: .duration) else {
            Issue.record("status must be .loading while the load runs")
            return
        }
        let duration = try await task.value
        guard case .loaded(let loaded) = asset.status(of: .duration) else {
            Issue.record("status must be .loaded afterwards")
            return
        }
        #expect(loaded == duration)
    }
}
