import Foundation
import Testing

@testable import ObjectStorage

#if canImport(Glibc)
import Glibc
#endif

/// A bucket endpoint that accepts connections and never answers (a hung gateway, a black-holed
/// proxy) is an outage within the client's answer timeout, not after two minutes.
@Suite("S3 client against an endpoint that never answers")
struct S3ClientSilentBucketTests {
    /// A listening socket on loopback that never accepts: the kernel completes connections,
    /// requests are sent, and nothing ever comes back. Returns the port and the descriptor.
    static func silentListener() throws -> (port: Int, descriptor: Int32) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(descriptor, 64) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (Int(UInt16(bigEndian: address.sin_port)), descriptor)
    }

    @Test func aHeadAndAStreamEndWithinTheAnswerTimeoutAsANetworkError() async throws {
        let (port, descriptor) = try Self.silentListener()
        defer { close(descriptor) }
        let client = S3Client(
            bucket: "b", endpoint: URL(string: "http://127.0.0.1:\(port)"), region: "us-east-1", accessKeyID: "k",
            secretAccessKey: "s", answerTimeout: .seconds(1))
        let clock = ContinuousClock()
        for operation in ["HEAD", "GET"] {
            let started = clock.now
            do {
                if operation == "HEAD" { _ = try await client.head("a/master.m3u8") } else { _ = try await client.stream("a/seg.m4s") }
                Issue.record("\(operation) of a silent endpoint answered")
            } catch let error as S3Error {
                #expect(error.status == 0 && error.code == "NetworkError", "\(error)")
            }
            let waited = clock.now - started
            // One attempt of 1 s, not retried; the bound is loose (a full parallel run on two
            // loaded cores once took 11 s) and only tells it from the HTTP client's two minutes.
            #expect(waited < .seconds(60), "\(operation) waited \(waited)")
        }
    }
}
