import Foundation
import LibraryObjectStorage
import ObjectStorage
import ServiceTesting
import Synchronization
import Testing

@testable import Library

/// The two `MediaStore` implementations; the suites run once against each: a media folder,
/// and a fresh bucket on a real SeaweedFS S3 gateway (which checks every signature).
enum MediaStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case folder, s3

    var testDescription: String { rawValue }

    /// A fresh, empty store of this kind for the data directory `data`.
    func makeStore(data: URL, delivery: MediaDelivery = .proxy) async throws -> any MediaStore {
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        switch self {
        case .folder:
            return FolderMediaStore(location: LibraryLocation(dataDirectory: data))
        case .s3:
            let server = try await ThrowawaySeaweedFS.shared.server()
            let location = S3Location(
                bucket: await ThrowawaySeaweedFS.shared.makeBucketName(), prefix: "media/library", endpoint: server.endpoint,
                region: server.region, accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey)
            // 5 MiB parts (S3's smallest), so a 6 MiB file goes up as a multipart upload.
            let client = S3Client(
                bucket: location.bucket, endpoint: server.endpoint, region: server.region, accessKeyID: server.accessKeyID,
                secretAccessKey: server.secretAccessKey, multipartPartSize: 5 * 1024 * 1024)
            try await client.createBucket()
            return S3MediaStore(
                location: location, delivery: delivery, workDirectory: data.appendingPathComponent("object-storage"), client: client,
                freshness: .zero)
        }
    }
}

/// A temporary data directory, removed by `cleanUp()`.
struct TemporaryFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-media-\(UUID().uuidString)")
    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// Writes `files` (relative path → bytes) into `folder`.
func stage(_ files: [String: Data], in folder: URL) throws {
    for (path, data) in files {
        let file = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }
}

/// Bytes that differ from position to position (so a range from the wrong offset shows).
func pattern(_ count: Int, seed: Int = 0) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251 &+ seed) })
}

/// Fetches `url` with curl (a client outside Marquee), returning the HTTP status and body.
func fetch(_ url: URL) async throws -> (status: Int, body: Data) {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-fetch-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let written = Mutex("")
    try await ProcessRunner(executable: "/usr/bin/curl").run(
        ["-s", "-o", out.path, "-w", "%{http_code}", "--max-time", "10", url.absoluteString]
    ) { line in written.withLock { $0 += line } }
    let status = Int(written.withLock { $0 }.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    return (status, (try? Data(contentsOf: out)) ?? Data())
}
