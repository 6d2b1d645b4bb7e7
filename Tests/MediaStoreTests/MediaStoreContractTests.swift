import Foundation
import HLS
import Library
import LibraryObjectStorage
import Testing

/// What the library and the server rely on from any `MediaStore`, run against a media folder
/// and against a bucket on SeaweedFS.
@Suite("Media stores")
struct MediaStoreContractTests {
    let master = Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nvideo/index.m3u8\n".utf8)
    let variant = Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nseg1.m4s\n#EXT-X-ENDLIST\n".utf8)

    func bundle(segment: Data) -> [String: Data] {
        [
            "master.m3u8": master, "video/index.m3u8": variant, "video/seg1.m4s": segment,
            "poster.jpg": Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]), "trickplay.json": Data("{\"count\":1}".utf8),
        ]
    }

    @Test(arguments: MediaStoreKind.allCases)
    func aPublishedBundleCanBeListedReadInRangesAndItsPlaylistsParsed(kind: MediaStoreKind) async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let store = try await kind.makeStore(data: temp.url)
        // 6 MiB: more than one 5 MiB part, so a bucket gets it as a multipart upload.
        let segment = pattern(6 * 1024 * 1024 + 17)
        try stage(bundle(segment: segment), in: store.stagingFolder(for: "asset-1"))
        try await store.publish(assetID: "asset-1")

        #expect(try await store.files(of: "asset-1") == ["master.m3u8", "poster.jpg", "trickplay.json", "video/index.m3u8", "video/seg1.m4s"])
        #expect(await store.contains("poster.jpg", of: "asset-1"))
        #expect(await !store.contains("poster.jpg", of: "asset-2"))
        #expect(try await store.read("video/seg1.m4s", of: "asset-1", range: nil)?.data == segment)
        let part = try #require(try await store.read("video/seg1.m4s", of: "asset-1", range: 5_242_870...5_242_899))
        #expect(part.data == segment[5_242_870...5_242_899])
        #expect(part.totalSize == segment.count)
        #expect(try await store.info("video/seg1.m4s", of: "asset-1")?.size == segment.count)
        #expect(try await store.read("video/missing.m4s", of: "asset-1", range: nil) == nil)
        #expect(try await store.info("video/missing.m4s", of: "asset-1") == nil)

        // Code that parses playlists finds them in a local folder.
        let folder = try await store.playlistFolder(for: "asset-1")
        #expect(try Data(contentsOf: folder.appendingPathComponent("master.m3u8")) == master)
        #expect(try Data(contentsOf: folder.appendingPathComponent("video/index.m3u8")) == variant)
        #expect(try Data(contentsOf: folder.appendingPathComponent(BundleLayout.trickPlayDescription)) == Data("{\"count\":1}".utf8))
        if !store.isLocal {
            // The staging folder is freed once the bucket has the bundle; segments are not copied locally.
            #expect(!FileManager.default.fileExists(atPath: store.stagingFolder(for: "asset-1").path))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("video/seg1.m4s").path))
        }
    }

    /// Several requests of one player page on one node need the playlists at once, just after
    /// the bundle changed: each finds every playlist (the copy is fetched once, and never
    /// missing while a reader uses it).
    @Test(arguments: MediaStoreKind.allCases)
    func readersAtOnceAfterAChangeAllFindThePlaylists(kind: MediaStoreKind) async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let store = try await kind.makeStore(data: temp.url)
        try stage(bundle(segment: pattern(1000)), in: store.stagingFolder(for: "a"))
        try await store.publish(assetID: "a")
        for round in 1...5 {
            let changed = Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\(round)000\nvideo/index.m3u8\n".utf8)
            try await store.write(changed, to: "master.m3u8", of: "a")
            let read = try await withThrowingTaskGroup(of: (Data, Data).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let folder = try await store.playlistFolder(for: "a")
                        return (
                            try Data(contentsOf: folder.appendingPathComponent("master.m3u8")),
                            try Data(contentsOf: folder.appendingPathComponent("video/index.m3u8"))
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(read.count == 8 && read.allSatisfy { $0 == (changed, variant) }, "round \(round)")
        }
    }

    @Test(arguments: MediaStoreKind.allCases)
    func publishingAgainReplacesTheBundleAndItsPlaylists(kind: MediaStoreKind) async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let store = try await kind.makeStore(data: temp.url)
        try stage(bundle(segment: pattern(1000)), in: store.stagingFolder(for: "a"))
        try await store.publish(assetID: "a")
        _ = try await store.playlistFolder(for: "a")

        // Packaged again (a re-ingest): the worker empties the staging folder first.
        try? FileManager.default.removeItem(at: store.stagingFolder(for: "a"))
        let newMaster = Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000\nvideo/index.m3u8\n".utf8)
        try stage(["master.m3u8": newMaster, "video/index.m3u8": variant, "video/seg1.m4s": pattern(500, seed: 7)], in: store.stagingFolder(for: "a"))
        try await store.publish(assetID: "a")

        #expect(try await store.files(of: "a") == ["master.m3u8", "video/index.m3u8", "video/seg1.m4s"])
        #expect(try await store.read("poster.jpg", of: "a", range: nil) == nil)
        #expect(try await store.read("video/seg1.m4s", of: "a", range: nil)?.data == pattern(500, seed: 7))
        #expect(try Data(contentsOf: try await store.playlistFolder(for: "a").appendingPathComponent("master.m3u8")) == newMaster)
    }

    @Test(arguments: MediaStoreKind.allCases)
    func singleFilesAreWrittenAndRemovedAndRemovingMediaLeavesNothing(kind: MediaStoreKind) async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let store = try await kind.makeStore(data: temp.url)
        try stage(bundle(segment: pattern(100)), in: store.stagingFolder(for: "b"))
        try await store.publish(assetID: "b")
        try stage(bundle(segment: pattern(100)), in: store.stagingFolder(for: "other"))
        try await store.publish(assetID: "other")

        try await store.write(Data("art".utf8), to: "artwork-1.png", of: "b")
        #expect(try await store.read("artwork-1.png", of: "b", range: nil)?.data == Data("art".utf8))
        #expect(try await store.files(of: "b").contains("artwork-1.png"))
        try await store.remove("artwork-1.png", of: "b")
        #expect(try await store.read("artwork-1.png", of: "b", range: nil) == nil)

        try await store.removeMedia(of: "b")
        #expect(try await store.files(of: "b") == [])
        #expect(await !store.contains("poster.jpg", of: "b"))
        #expect(try await store.read("master.m3u8", of: "b", range: nil) == nil)
        // Only that asset's media.
        #expect(try await store.files(of: "other").count == 5)
    }

    /// A bucket object replaced between its validator and a ranged read is reported as
    /// `MediaFileChanged` (the server then reads the validator again), not as a store failure.
    @Test func aStreamOfAnObjectReplacedSinceItsValidatorSaysItChanged() async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let store = try await MediaStoreKind.s3.makeStore(data: temp.url)
        try await store.write(pattern(4096), to: "artwork-1.png", of: "c")
        let before = try #require(try await store.info("artwork-1.png", of: "c"))
        let same = try #require(try await store.stream("artwork-1.png", of: "c", range: 10...19, ifMatch: before.eTag))
        #expect(same.range == 10...19)

        try await store.write(pattern(4096, seed: 7), to: "artwork-1.png", of: "c")
        await #expect(throws: MediaFileChanged.self) {
            _ = try await store.stream("artwork-1.png", of: "c", range: 10...19, ifMatch: before.eTag)
        }
        let after = try #require(try await store.info("artwork-1.png", of: "c"))
        #expect(after.eTag != before.eTag)
        #expect(try await store.stream("artwork-1.png", of: "c", range: 10...19, ifMatch: after.eTag) != nil)
    }

    @Test(arguments: MediaStoreKind.allCases)
    func pathsThatLeaveAnAssetAreRefused(kind: MediaStoreKind) async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let store = try await kind.makeStore(data: temp.url)
        try stage(bundle(segment: pattern(10)), in: store.stagingFolder(for: "c"))
        try await store.publish(assetID: "c")
        try stage(["secret.txt": Data("no".utf8)], in: store.stagingFolder(for: "d"))
        try await store.publish(assetID: "d")
        for path in ["../d/secret.txt", "video/../../d/secret.txt", "..", "a\0b", "a\\b"] {
            #expect(try await store.read(path, of: "c", range: nil) == nil, "\(path)")
            #expect(store.localFile(path, of: "c") == nil, "\(path)")
        }
        #expect(try await store.read("secret.txt", of: "..", range: nil) == nil)
        await #expect(throws: (any Error).self) { try await store.write(Data(), to: "../d/secret.txt", of: "c") }
        #expect(try await store.read("secret.txt", of: "d", range: nil)?.data == Data("no".utf8))
    }

    @Test(arguments: MediaStoreKind.allCases)
    func aKeptSourceIsFetchedBackWhole(kind: MediaStoreKind) async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let store = try await kind.makeStore(data: temp.url)
        let upload = temp.url.appendingPathComponent("uploaded/u1/My Film.mp4")
        try stage(["uploaded/u1/My Film.mp4": pattern(5 * 1024 * 1024 + 3)], in: temp.url)
        let sourcePath = try await store.keepSource(upload, named: "My Film.mp4", id: "u1")
        if store.isLocal {
            #expect(sourcePath == upload.path)
            #expect(!store.ownsSource(sourcePath))
        } else {
            #expect(store.ownsSource(sourcePath))
            #expect(!store.ownsSource("/srv/media/film.mp4"))
            let fetched = try #require(try await store.fetchSource(sourcePath, into: temp.url.appendingPathComponent("scratch")))
            #expect(fetched.lastPathComponent == "My Film.mp4")
            #expect(try Data(contentsOf: fetched) == pattern(5 * 1024 * 1024 + 3))
            try await store.removeSource(sourcePath)
            #expect(try await store.fetchSource(sourcePath, into: temp.url.appendingPathComponent("scratch2")) == nil)
        }
    }

    @Test func aKeptFolderSuchAsADownloadedBundleIsFetchedBackWhole() async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let store = try await MediaStoreKind.s3.makeStore(data: temp.url)
        let files = ["master.m3u8": master, "video/index.m3u8": variant, "video/seg1.m4s": pattern(3000), "metadata.json": Data("{}".utf8)]
        try stage(files, in: temp.url.appendingPathComponent("downloads/Film"))
        let sourcePath = try await store.keepSource(temp.url.appendingPathComponent("downloads/Film"), named: "Film", id: "d1")
        #expect(store.ownsSource(sourcePath) && sourcePath.hasSuffix("/sources/d1/Film/"))
        let fetched = try #require(try await store.fetchSource(sourcePath, into: temp.url.appendingPathComponent("scratch")))
        #expect(fetched.lastPathComponent == "Film")
        for (path, data) in files { #expect(try Data(contentsOf: fetched.appendingPathComponent(path)) == data, "\(path)") }
        try await store.removeSource(sourcePath)
        #expect(try await store.fetchSource(sourcePath, into: temp.url.appendingPathComponent("scratch2")) == nil)
    }
}

/// How a bucket's files reach clients: streamed (no direct URL), a presigned URL the gateway
/// accepts, or a CDN base URL.
@Suite("Media delivery from a bucket")
struct MediaDeliveryTests {
    @Test func presignedURLsFetchTheObjectAndCDNURLsFollowTheKey() async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let proxied = try await MediaStoreKind.s3.makeStore(data: temp.url.appendingPathComponent("p"))
        #expect(proxied.directURL(for: "poster.jpg", of: "e") == nil)

        let store = try await MediaStoreKind.s3.makeStore(data: temp.url, delivery: .presigned(expires: 600))
        try stage(["poster.jpg": pattern(3000), "video/seg 1.m4s": pattern(40)], in: store.stagingFolder(for: "e"))
        try await store.publish(assetID: "e")
        let url = try #require(store.directURL(for: "video/seg 1.m4s", of: "e"))
        #expect(url.query?.contains("X-Amz-Signature=") == true)
        let answer = try await fetch(url)
        #expect(answer.status == 200)
        #expect(answer.body == pattern(40))
        // A URL for another key with this signature is refused by the gateway.
        let posterURL = try #require(store.directURL(for: "poster.jpg", of: "e"))
        var forged = try #require(URLComponents(url: posterURL, resolvingAgainstBaseURL: false))
        forged.percentEncodedQuery = url.query
        let forgedURL = try #require(forged.url)
        #expect(try await fetch(forgedURL).status == 403)

        let cdn = S3MediaStore(
            location: (store as! S3MediaStore).location, delivery: .cdn(URL(string: "https://cdn.example.com/films/")!),
            workDirectory: temp.url.appendingPathComponent("cdn"))
        #expect(cdn.directURL(for: "video/seg 1.m4s", of: "e")?.absoluteString == "https://cdn.example.com/films/e/video/seg%201.m4s")
        #expect(cdn.directURL(for: "../x", of: "e") == nil)
    }

    @Test func aMissingBucketOrAWrongSecretIsNamedAtStart() async throws {
        let temp = TemporaryFolder()
        defer { temp.cleanUp() }
        let good = try await MediaStoreKind.s3.makeStore(data: temp.url) as! S3MediaStore
        try await good.checkAccess()
        var missing = good.location
        missing.bucket = "no-such-bucket-\(UInt32.random(in: 0...UInt32.max))"
        var wrongSecret = good.location
        wrongSecret.secretAccessKey = "wrong"
        for location in [missing, wrongSecret] {
            let store = S3MediaStore(location: location, workDirectory: temp.url.appendingPathComponent("x"))
            await #expect(throws: S3MediaStoreError.self) { try await store.checkAccess() }
        }
    }

    @Test func deliveryIsParsedFromOptionsEnvironmentAndFile() throws {
        #expect(try MediaDelivery(parsing: "proxy") == .proxy)
        #expect(try MediaDelivery(parsing: "presigned") == .presigned(expires: 3600))
        #expect(try MediaDelivery(parsing: "presigned:900") == .presigned(expires: 900))
        #expect(try MediaDelivery(parsing: "cdn:https://cdn.example.com/m") == .cdn(URL(string: "https://cdn.example.com/m")!))
        #expect(throws: ConfigurationError.self) { try MediaDelivery(parsing: "presigned:5") }
        #expect(throws: ConfigurationError.self) { try MediaDelivery(parsing: "cdn:ftp://x") }
        #expect(throws: ConfigurationError.self) { try MediaDelivery(parsing: "redirect") }

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"media": "s3://films/x", "mediaDelivery": "cdn:https://cdn.example.com"}"#.utf8).write(to: file)
        #expect(try MediaDelivery.resolve(option: nil, configFile: file.path, environment: [:]) == .cdn(URL(string: "https://cdn.example.com")!))
        #expect(
            try MediaDelivery.resolve(option: nil, configFile: file.path, environment: ["MARQUEE_MEDIA_DELIVERY": "presigned"]) == .presigned(expires: 3600))
        #expect(try MediaDelivery.resolve(option: "proxy", configFile: file.path, environment: ["MARQUEE_MEDIA_DELIVERY": "presigned"]) == .proxy)
        #expect(try MediaDelivery.resolve(option: nil, configFile: nil, environment: [:]) == .proxy)
    }
}
