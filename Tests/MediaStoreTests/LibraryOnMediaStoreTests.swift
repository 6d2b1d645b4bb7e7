import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MediaTesting
import NIOFoundationCompat
import Synchronization
import Testing

@testable import Library
@testable import MarqueeServer

/// The whole path on each media store: a clip uploaded through the chunked upload API's
/// store, packaged by the ingest worker, published, played through the server's routes
/// (the same answers from a folder and from a bucket), and deleted with all its files.
@Suite("The library on each media store")
struct LibraryOnMediaStoreTests {
    /// A 2-second 320×180 H.264/AAC clip made with ffmpeg.
    func makeClip(in folder: URL) async throws -> URL {
        try await TestClip(seconds: 2).write(to: folder.appendingPathComponent("clip.mp4"))
    }

    struct Bytes: AsyncSequence, Sendable {
        typealias Element = [UInt8]
        let data: [UInt8]
        struct AsyncIterator: AsyncIteratorProtocol {
            var data: [UInt8]?
            mutating func next() async throws -> [UInt8]? {
                defer { data = nil }
                return data
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(data: data) }
    }

    @Test(arguments: MediaStoreKind.allCases)
    func anUploadIsPackagedPublishedServedAndDeleted(kind: MediaStoreKind) async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let data = temp.url.appendingPathComponent("data")
        let media = try await kind.makeStore(data: data)
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: data), media: media)
        let clip = try await makeClip(in: temp.url)
        let bytes = try [UInt8](Data(contentsOf: clip))

        // The chunked upload API's store, then the library takes it.
        let upload = try await library.uploads.create(fileName: "Seaside.mp4", length: Int64(bytes.count))
        _ = try await library.uploads.append(id: upload.id, range: ChunkRange(start: 0), body: Bytes(data: bytes))
        let asset = try await library.addUpload(id: upload.id)
        let source = try #require(asset.sourcePath)
        if !media.isLocal {
            // The upload lives in the bucket (a worker on another machine fetches it); no local copy stays.
            #expect(media.ownsSource(source))
            #expect(!FileManager.default.fileExists(atPath: library.location.uploadedSourcesDirectory.appendingPathComponent(upload.id).path))
        }
        await library.worker.drain()
        let ready = try #require(try await library.asset(id: asset.id))
        let jobMessage = try await library.jobs(assetID: asset.id).first?.message ?? ""
        #expect(ready.status == .ready, "\(jobMessage)")
        #expect(try await library.posterPaths(for: [ready])[ready.id] == "/media/\(asset.id)/poster.jpg")
        let files = try await media.files(of: asset.id)
        #expect(files.contains("master.m3u8") && files.contains("poster.jpg") && files.contains("trickplay.jpg"))
        #expect(files.contains { $0.hasSuffix(".m4s") })

        let app = MarqueeServer(library: library).application(host: "127.0.0.1", port: 0)
        let firstSegment = Mutex<String?>(nil)
        try await app.test(.router) { client in
            let manifest = try await client.execute(uri: "/api/assets/\(asset.id)/manifest.json", method: .get) { $0 }
            #expect(manifest.status == .ok)
            let decoded = try JSONDecoder().decode(PlaybackManifest.self, from: Data(buffer: manifest.body))
            let video = try #require(decoded.video.first)
            let segmentURL = try #require(video.segments.first?.url)
            firstSegment.withLock { $0 = segmentURL }
            #expect(decoded.trickPlay != nil)

            let segment = try await client.execute(uri: segmentURL, method: .get) { $0 }
            #expect(segment.status == .ok)
            #expect(segment.headers[.contentType] == "video/iso.segment")
            #expect(segment.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(segment.headers[.acceptRanges] == "bytes")
            let whole = Data(buffer: segment.body)
            #expect(whole.count > 100)
            #expect(Int(segment.headers[.contentLength] ?? "") == whole.count)

            let part = try await client.execute(uri: segmentURL, method: .get, headers: [.range: "bytes=10-49"]) { $0 }
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 10-49/\(whole.count)")
            #expect(Data(buffer: part.body) == whole[10...49])
            let suffix = try await client.execute(uri: segmentURL, method: .get, headers: [.range: "bytes=-5"]) { $0 }
            #expect(Data(buffer: suffix.body) == whole.suffix(5))
            let beyond = try await client.execute(uri: segmentURL, method: .get, headers: [.range: "bytes=\(whole.count + 10)-"]) { $0 }
            #expect(beyond.status == .rangeNotSatisfiable)
            #expect(beyond.headers[.contentRange] == "bytes */\(whole.count)")
            let head = try await client.execute(uri: segmentURL, method: .head) { $0 }
            #expect(head.status == .ok && head.headers[.contentLength] == String(whole.count))
            if let eTag = segment.headers[.eTag] {
                let again = try await client.execute(uri: segmentURL, method: .get, headers: [.ifNoneMatch: eTag]) { $0 }
                #expect(again.status == .notModified)
            }

            let master = try await client.execute(uri: "/media/\(asset.id)/master.m3u8", method: .get) { $0 }
            #expect(master.status == .ok)
            #expect(master.headers[.contentType] == "application/vnd.apple.mpegurl")
            #expect(master.headers[.cacheControl] == "public, max-age=2, must-revalidate")
            #expect(String(buffer: master.body).hasPrefix("#EXTM3U"))
            let poster = try await client.execute(uri: "/media/\(asset.id)/poster.jpg", method: .get) { $0 }
            #expect(poster.status == .ok && poster.headers[.contentType] == "image/jpeg")
            #expect(Data(buffer: poster.body).starts(with: [0xFF, 0xD8, 0xFF]))
            for missing in ["/media/\(asset.id)/video/nothing.m4s", "/media/\(asset.id)/..%2F..%2Fetc%2Fpasswd", "/media/nobody/poster.jpg"] {
                let answer = try await client.execute(uri: missing, method: .get) { $0 }
                #expect(answer.status == .notFound, "\(missing)")
            }
        }

        // A hot segment from the bucket is held in memory and, like a local file, answered on
        // the event loop, with the bucket's validator.
        if !media.isLocal, let segmentURL = firstSegment.withLock({ $0 }) {
            let server = MarqueeServer(library: library)
            server.mediaFiles.cache.trust = .seconds(600)
            try await server.application(host: "127.0.0.1", port: 0).test(.live) { client in
                let first = try await client.execute(uri: segmentURL, method: .get) { $0 }
                let second = try await client.execute(uri: segmentURL, method: .get) { $0 }
                #expect(first.status == .ok && second.status == .ok)
                #expect(Data(buffer: second.body) == Data(buffer: first.body))
                #expect(second.headers[.eTag] != nil && second.headers[.eTag] == first.headers[.eTag])
                #expect(server.mediaFiles.answeredOnEventLoop.load(ordering: .relaxed) >= 1)
            }
        }

        try await library.delete(assetID: asset.id)
        #expect(try await media.files(of: asset.id) == [])
        if !media.isLocal {
            #expect(try await media.fetchSource(source, into: temp.url.appendingPathComponent("gone")) == nil, "the kept upload goes with its asset")
        }
    }

    @Test(arguments: MediaStoreKind.allCases)
    func aDownloadedBundleIsImportedFromWhereTheStoreKeepsIt(kind: MediaStoreKind) async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let data = temp.url.appendingPathComponent("data")
        let media = try await kind.makeStore(data: data)
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: data), media: media)
        // A bundle as `marquee download` leaves one: packaged HLS in a folder of its own.
        let clip = try await makeClip(in: temp.url)
        let bundle = temp.url.appendingPathComponent("downloads/Harbour")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run([
            "-hide_banner", "-loglevel", "error", "-i", clip.path, "-c", "copy", "-f", "hls", "-hls_time", "1", "-hls_segment_type", "fmp4",
            "-hls_playlist_type", "vod", "-master_pl_name", "master.m3u8", bundle.appendingPathComponent("video.m3u8").path,
        ])

        let asset = try await library.add(keeping: bundle)
        #expect(asset.title == "Harbour")
        if !media.isLocal {
            // The worker may be on another machine: it gets the bundle from the bucket, not from this disk.
            #expect(media.ownsSource(try #require(asset.sourcePath)))
            try FileManager.default.removeItem(at: bundle)
        }
        await library.worker.drain()
        let ready = try #require(try await library.asset(id: asset.id))
        let jobMessage = try await library.jobs(assetID: asset.id).first?.message ?? ""
        #expect(ready.status == .ready, "\(jobMessage)")
        #expect(try await media.files(of: asset.id).contains("master.m3u8"))
        #expect(try await library.posterPaths(for: [ready])[ready.id] != nil)
    }

    @Test func aBucketConfiguredForPresignedDeliveryRedirectsAllButPlaylists() async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let data = temp.url.appendingPathComponent("data")
        let media = try await MediaStoreKind.s3.makeStore(data: data, delivery: .presigned(expires: 600))
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: data), media: media)
        try stage(
            ["master.m3u8": Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n".utf8), "seg.m4s": pattern(300)],
            in: media.stagingFolder(for: "f"))
        try await media.publish(assetID: "f")
        let app = MarqueeServer(library: library).application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let segment = try await client.execute(uri: "/media/f/seg.m4s", method: .get) { $0 }
            #expect(segment.status == .found)
            let location = try #require(segment.headers[.location].flatMap(URL.init(string:)))
            let fetched = try await fetch(location)
            #expect(fetched.status == 200 && fetched.body == pattern(300))
            let master = try await client.execute(uri: "/media/f/master.m3u8", method: .get) { $0 }
            #expect(master.status == .ok)
            #expect(String(buffer: master.body).contains("v.m3u8"))
        }
    }
}
