import Foundation
import ServiceTesting
import Testing

@testable import ObjectStorage

/// The client against a real S3 gateway (SeaweedFS on loopback), which checks every signature.
@Suite("S3 client against SeaweedFS")
struct S3ClientTests {
    func client(secret: String? = nil) async throws -> S3Client {
        let server = try await ThrowawaySeaweedFS.shared.server()
        let bucket = await ThrowawaySeaweedFS.shared.makeBucketName()
        let client = S3Client(
            bucket: bucket, endpoint: server.endpoint, region: server.region, accessKeyID: server.accessKeyID,
            secretAccessKey: secret ?? server.secretAccessKey, multipartPartSize: 5 * 1024 * 1024)
        if secret == nil { try await client.createBucket() }
        return client
    }

    @Test func putGetRangeHeadListDelete() async throws {
        let s3 = try await client()
        let body = Data((0..<10_000).map { UInt8($0 % 251) })
        try await s3.put(body, key: "asset 1/video/seg 001.m4s", contentType: "video/iso.segment")
        try await s3.put(Data("#EXTM3U\n".utf8), key: "asset 1/master.m3u8", contentType: "application/vnd.apple.mpegurl")
        try await s3.put(Data("other".utf8), key: "asset 2/master.m3u8")

        let whole = try await s3.get("asset 1/video/seg 001.m4s")
        #expect(whole.data == body)
        #expect(whole.contentType == "video/iso.segment")
        let range = try await s3.get("asset 1/video/seg 001.m4s", range: 100...199)
        #expect(range.data == body[100...199])
        #expect(range.totalSize == body.count)
        #expect(try await s3.head("asset 1/video/seg 001.m4s")?.size == body.count)
        #expect(try await s3.head("asset 1/nothing") == nil)
        #expect(try await s3.list(prefix: "asset 1/").map(\.key).sorted() == ["asset 1/master.m3u8", "asset 1/video/seg 001.m4s"])

        try await s3.delete("asset 1/master.m3u8")
        #expect(try await s3.head("asset 1/master.m3u8") == nil)
        await #expect(throws: S3Error.self) { try await s3.get("asset 1/master.m3u8") }
    }

    @Test func aLargeFileGoesUpInPartsAndComesBackWhole() async throws {
        let s3 = try await client()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-s3-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        var bytes = Data(count: 12 * 1024 * 1024 + 123)  // three parts of 5 MiB, the last short
        bytes.withUnsafeMutableBytes { buffer in
            for index in stride(from: 0, to: buffer.count, by: 4096) { buffer[index] = UInt8(index / 4096 % 256) }
        }
        try bytes.write(to: file)
        try await s3.putFile(file, key: "big/source.mp4", contentType: "video/mp4")
        #expect(try await s3.head("big/source.mp4")?.size == bytes.count)
        #expect(try await s3.head("big/source.mp4")?.etag?.hasSuffix("-3\"") == true)  // a multipart ETag
        let tail = try await s3.get("big/source.mp4", range: (bytes.count - 5000)...(bytes.count - 1))
        #expect(tail.data == bytes.suffix(5000))
        #expect(try await s3.get("big/source.mp4").data == bytes)
    }

    @Test func aWrongSecretIsRefusedByTheServer() async throws {
        let good = try await client()
        try await good.put(Data("x".utf8), key: "k")
        let forged = S3Client(
            bucket: good.bucket, endpoint: good.endpoint, region: "us-east-1", accessKeyID: good.signer.accessKeyID,
            secretAccessKey: "not-the-secret", maximumAttempts: 1)
        let error = await #expect(throws: S3Error.self) { try await forged.get("k") }
        #expect(error?.status == 403)
        #expect(error?.code == "SignatureDoesNotMatch")
    }

    @Test func aPresignedURLWorksWithoutCredentialsUntilItExpires() async throws {
        let s3 = try await client()
        try await s3.put(Data("poster bytes".utf8), key: "a/poster.jpg", contentType: "image/jpeg")
        let url = s3.presignedURL(for: "a/poster.jpg", expires: 600)
        let (data, response) = try await ThrowawayPostgreSQL.run("/usr/bin/curl", ["-s", "-w", "\n%{http_code}", url.absoluteString]).text
            .split(separator: "\n").map(String.init).splitLast()
        #expect(response == "200")
        #expect(data == "poster bytes")
        let expired = s3.presignedURL(for: "a/poster.jpg", expires: 1, date: Date().addingTimeInterval(-3600))
        let status = try await ThrowawayPostgreSQL.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", expired.absoluteString]).text
        #expect(status == "403")
    }
}

extension Array where Element == String {
    func splitLast() -> (String, String) {
        (dropLast().joined(separator: "\n"), last ?? "")
    }
}
