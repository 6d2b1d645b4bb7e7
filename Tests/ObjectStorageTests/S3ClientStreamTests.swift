import AsyncHTTPClient
import Foundation
import NIOCore
import ServiceTesting
import Testing

@testable import ObjectStorage

/// Streaming reads against a real S3 gateway (SeaweedFS on loopback): the bytes of a range
/// arrive in pieces and match, the size comes from `Content-Range`, a missing object is `nil`,
/// and `If-Match` refuses an object that changed since its ETag was read.
@Suite("S3 client streaming reads")
struct S3ClientStreamTests {
    func client() async throws -> S3Client {
        let server = try await ThrowawaySeaweedFS.shared.server()
        let client = S3Client(
            bucket: await ThrowawaySeaweedFS.shared.makeBucketName(), endpoint: server.endpoint, region: server.region,
            accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey)
        try await client.createBucket()
        return client
    }

    func collect(_ stream: S3Client.ObjectStream) async throws -> (Data, pieces: Int) {
        var data = Data()
        var pieces = 0
        for try await buffer in stream.body {
            data.append(contentsOf: buffer.readableBytesView)
            pieces += 1
        }
        return (data, pieces)
    }

    @Test func aRangeStreamsInPiecesWithItsPlaceInTheWholeObject() async throws {
        let client = try await client()
        let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try await client.put(bytes, key: "a/big.bin")

        let whole = try #require(try await client.stream("a/big.bin"))
        #expect(whole.totalSize == bytes.count && whole.range == 0...(bytes.count - 1))
        let (wholeData, pieces) = try await collect(whole)
        #expect(wholeData == bytes)
        #expect(pieces > 1, "3 MiB arrived in one piece: the body was collected, not streamed")

        let part = try #require(try await client.stream("a/big.bin", range: 1_000_000...1_999_999, ifMatch: whole.etag))
        #expect(part.totalSize == bytes.count && part.range == 1_000_000...1_999_999)
        #expect(try await collect(part).0 == bytes[1_000_000...1_999_999])

        #expect(try await client.stream("a/missing.bin") == nil)

        try await client.put(Data("changed".utf8), key: "a/big.bin")
        await #expect(throws: S3Error.self) { _ = try await client.stream("a/big.bin", range: 0...9, ifMatch: whole.etag) }
    }
}
