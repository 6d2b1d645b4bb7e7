import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LibraryObjectStorage
import MarqueeServer
import NIOFoundationCompat
import ObjectStorage
import Testing

@testable import Library

#if canImport(Glibc)
import Glibc
#endif

/// A bucket that does not answer (its gateway down): media answers `503` with a sentence that
/// names no bucket, key or S3 error, `/readyz` says the media storage is not answering, and
/// both come back by themselves (the next request asks the bucket again).
@Suite("When the media storage is down")
struct StorageOutageTests {
    /// A loopback port that refuses connections for as long as the socket is open: bound, never listening.
    final class RefusingPort {
        let descriptor: Int32
        let port: Int

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
            }
            guard bound else { throw CocoaError(.fileReadUnknown) }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    @Test func mediaAnswers503WithASentenceAndReadyzNamesTheStorage() async throws {
        let refusing = try RefusingPort()
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let data = temp.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let location = S3Location(
            bucket: "secret-bucket-name", prefix: "layout/prefix", endpoint: URL(string: "http://127.0.0.1:\(refusing.port)")!, region: "us-east-1",
            accessKeyID: "key", secretAccessKey: "secret")
        let media = S3MediaStore(location: location, workDirectory: data.appendingPathComponent("object-storage"))
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: data), media: media)
        var server = MarqueeServer(library: library)
        server.readinessLimit = .seconds(120)  // the bucket refuses at once; a busy machine is not the point here
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client in
            let requests: [(String, HTTPFields)] = [
                ("/media/abc123/video/0/segment-1.m4s", [:]), ("/media/abc123/master.m3u8", [:]),
                ("/media/abc123/poster.jpg", [.range: "bytes=0-99"]),
            ]
            for (path, headers) in requests {
                try await client.execute(uri: path, method: .get, headers: headers) { response throws in
                    #expect(response.status == .serviceUnavailable, "\(path)")
                    #expect(response.headers[.retryAfter] != nil)
                    let body = String(buffer: response.body)
                    let error = try JSONDecoder().decode(APIErrorBody.self, from: Data(buffer: response.body)).error
                    #expect(error.code == "media-storage-unavailable")
                    #expect(error.message.contains("media storage is not answering"))
                    for secret in ["secret-bucket-name", "layout/prefix", "abc123/", "S3", "NetworkError", "127.0.0.1"] {
                        #expect(!body.contains(secret), "\(path) revealed \(secret): \(body)")
                    }
                }
            }
            try await client.execute(uri: "/readyz", method: .get) { response throws in
                #expect(response.status == .serviceUnavailable)
                let body = String(buffer: response.body)
                #expect(body.contains(#""name":"media-storage","ok":false"#), "\(body)")
                #expect(body.contains("Not ready: ") && body.contains("The media storage: it"), "\(body)")
                #expect(!body.contains("secret-bucket-name"))
                #expect(body.contains(#""name":"database""#))
            }
        }
    }
}
