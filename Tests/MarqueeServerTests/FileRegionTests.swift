import Foundation
import Hummingbird
import HummingbirdTesting
import Library
import NIOCore
import NIOFoundationCompat
import Synchronization
import Testing

@testable import MarqueeServer

/// Files too large to keep in memory go out with `sendfile` through the connection's
/// `FileRegionSink`: over a real socket, every byte, range and header must be what the
/// in-memory path sends, and the sink's internal header never reaches the client.
@Suite("Files sent from disk (sendfile)")
struct FileRegionTests {
    @Test func largeFilesWholeAndInRangesOverARealConnection() async throws {
        let fixture = try await ServerFixture.shared.value
        let name = "large-\(UUID().uuidString).m4s"
        let file = fixture.library.location.bundleDirectory(for: fixture.clipID).appendingPathComponent(name)
        // Larger than `largestFileInMemory` (8 MiB), so it is sent from the open file.
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<(9 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let uri = "/media/\(fixture.clipID)/\(name)"
        let sentBefore = FileRegionSink.regionsSent.load(ordering: .relaxed)

        try await fixture.application().test(.live) { client in
            let eTag = try await client.execute(uri: uri, method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "video/iso.segment")
                #expect(response.headers[.contentLength] == String(bytes.count))
                #expect(response.headers[FileRegionSink.headerName] == nil)
                #expect(Data(buffer: response.body) == bytes)
                return try #require(response.headers[.eTag])
            }
            // Again on the same connection, from the cached open file.
            try await client.execute(uri: uri, method: .get) { response throws in
                #expect(Data(buffer: response.body) == bytes)
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=1000000-1000099"]) { response throws in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 1000000-1000099/\(bytes.count)")
                #expect(Data(buffer: response.body) == bytes[1_000_000...1_000_099])
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=-5"]) { response throws in
                #expect(response.status == .partialContent)
                #expect(Data(buffer: response.body) == bytes.suffix(5))
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=\(bytes.count)-"]) { response throws in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */\(bytes.count)")
            }
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: eTag]) { response throws in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: uri, method: .head) { response throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == String(bytes.count))
            }
            // The large responses above went out as file regions, not read into memory.
            #expect(FileRegionSink.regionsSent.load(ordering: .relaxed) - sentBefore >= 4)
            // A small file right after a large one on the same connection.
            try await client.execute(uri: "/media/\(fixture.clipID)/master.m3u8", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).hasPrefix("#EXTM3U"))
            }
        }
    }

    @Test func aRegionWhoseResponseNeverCameIsDroppedNotSent() throws {
        // A middleware may answer instead of the file route after the region was registered:
        // the next response's region is the one sent, and older ones are forgotten.
        let owner = NSObject()
        let sink = FileRegionSink(key: ObjectIdentifier(owner))
        let file = try #require(OpenFile(path: "/dev/null"))
        let first = sink.register(file, offset: 0, count: 1)
        let second = sink.register(file, offset: 0, count: 2)
        #expect(first != second)
        #expect(sink.pendingCount == 2)
        #expect(sink.take(Substring(second))?.count == 2)
        #expect(sink.pendingCount == 0)
        #expect(sink.take(Substring(first)) == nil)
    }
}
