import Foundation
import Hummingbird
import HummingbirdTesting
import NIOFoundationCompat
import Playback
import Testing

@testable import Library
@testable import MarqueeServer

/// A library of its own (nothing packaged) for routes that add and remove assets.
struct EmptyLibrary {
    let root: URL
    let library: MediaLibrary

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-upload-tests-\(UUID().uuidString)")
        library = try MediaLibrary(location: LibraryLocation(dataDirectory: root))
    }

    func application() -> some ApplicationProtocol { MarqueeServer(library: library).application(host: "127.0.0.1", port: 0) }
    func cleanUp() { try? FileManager.default.removeItem(at: root) }
}

struct UploadBody: Decodable {
    var id: String
    var fileName: String
    var length: Int64?
    var offset: Int64
    var complete: Bool
}

@Suite("Upload and library-management routes")
struct UploadRouteTests {
    @Test func aChunkedUploadResumesFromTheServersOffsetAndBecomesAnAsset() async throws {
        let temp = try EmptyLibrary()
        defer { temp.cleanUp() }
        let bytes = ByteBuffer(bytes: (0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        try await temp.application().test(.live) { client in
            var id = ""
            try await client.execute(uri: "/api/uploads", method: .post, body: .json(#"{"fileName": "My Show - S02E05 - Five.mp4", "length": 100000}"#)) {
                response throws in
                #expect(response.status == .created)
                let upload = try response.json(UploadBody.self)
                #expect(upload.offset == 0 && upload.length == 100_000 && !upload.complete)
                #expect(response.headers[.location] == "/api/uploads/\(upload.id)")
                id = upload.id
            }
            try await client.execute(
                uri: "/api/uploads/\(id)", method: .put, headers: [.contentRange: "bytes 0-59999/100000"],
                body: bytes.getSlice(at: 0, length: 60_000)!
            ) { response throws in
                #expect(response.status == .ok)
                #expect(try response.json(UploadBody.self).offset == 60_000)
            }
            // A client that lost track resends an old chunk: 409 says where to resume.
            try await client.execute(
                uri: "/api/uploads/\(id)", method: .put, headers: [.contentRange: "bytes 0-9/100000"],
                body: bytes.getSlice(at: 0, length: 10)!
            ) { response throws in
                #expect(response.status == .conflict)
                #expect(response.headers[UploadHeader.offset] == "60000")
            }
            try await client.execute(uri: "/api/uploads/\(id)", method: .head) { response throws in
                #expect(response.status == .ok)
                #expect(response.headers[UploadHeader.offset] == "60000")
                #expect(response.headers[UploadHeader.length] == "100000")
            }
            try await client.execute(uri: "/api/uploads/\(id)/complete", method: .post) { response throws in
                #expect(response.status == .conflict)
                #expect(response.errorMessage.contains("60000 of 100000"))
            }
            try await client.execute(uri: "/api/uploads/\(id)?offset=60000", method: .put, body: bytes.getSlice(at: 60_000, length: 40_000)!) {
                response throws in
                #expect(try response.json(UploadBody.self).complete)
            }
            var assetID = ""
            try await client.execute(uri: "/api/uploads/\(id)/complete", method: .post) { response throws in
                #expect(response.status == .accepted)
                let asset = try response.json(AssetResource.self)
                #expect(asset.status == "pending")
                #expect(asset.series?.title == "My Show" && asset.series?.season == 2 && asset.series?.episode == 5)
                #expect(asset.series?.label == "S2 · E5 — Five")
                assetID = asset.id
            }
            try await client.execute(uri: "/api/uploads/\(id)", method: .get) { response throws in
                #expect(response.status == .notFound)
            }
            // The shelf groups it as a series; the file is on disk, whole.
            try await client.execute(uri: "/api/library", method: .get) { response throws in
                let text = response.text
                #expect(text.contains(#""kind":"series""#) && text.contains(#""title":"My Show""#))
            }
            let source = try #require(try await temp.library.store.asset(id: assetID)?.sourcePath)
            #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == Data(buffer: bytes))
            try await client.execute(uri: "/api/assets/\(assetID)?permanently=true", method: .delete) { response throws in
                #expect(response.status == .noContent)
            }
            #expect(!FileManager.default.fileExists(atPath: source))
        }
    }

    @Test func badUploadRequestsGetClearErrors() async throws {
        let temp = try EmptyLibrary()
        defer { temp.cleanUp() }
        try await temp.application().test(.router) { client in
            try await client.execute(uri: "/api/uploads", method: .post, body: .json(#"{"fileName": "..", "length": 5}"#)) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("file name"))
            }
            var id = ""
            try await client.execute(uri: "/api/uploads", method: .post, body: .json(#"{"fileName": "a.mp4", "length": 5}"#)) { response throws in
                id = try response.json(UploadBody.self).id
            }
            try await client.execute(uri: "/api/uploads/\(id)", method: .put, headers: [.contentRange: "bytes 0-9/10"], body: ByteBuffer(string: "abc")) {
                response throws in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/uploads/\(id)", method: .put, headers: [.contentRange: "bytes 0-1/5"], body: ByteBuffer(string: "abcd")) {
                response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("longer"))
            }
            // A chunk that names no position starts at byte 0 (a whole file in one plain PUT); the
            // range above kept its 2 bytes, so byte 0 is the wrong place now: 409 with the offset.
            try await client.execute(uri: "/api/uploads/\(id)", method: .put, body: ByteBuffer(string: "abc")) { response throws in
                #expect(response.status == .conflict)
                #expect(response.headers[UploadHeader.offset] == "2")
            }
            try await client.execute(uri: "/api/uploads/\(id)", method: .delete) { response throws in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/api/uploads/not-an-upload", method: .get) { response throws in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/library?sort=colour", method: .get) { response throws in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("A Content-Range at the edge of Int64 on an upload without a length gets a 400, and the server stays up")
    func aRangeThatWouldOverflowIsRefused() async throws {
        let temp = try EmptyLibrary()
        defer { temp.cleanUp() }
        try await temp.application().test(.router) { client in
            var id = ""
            try await client.execute(uri: "/api/uploads", method: .post, body: .json(#"{"fileName": "a.mp4"}"#)) { response throws in
                id = try response.json(UploadBody.self).id
            }
            for header in ["bytes 0-9223372036854775807/*", "bytes 0-99999999999999999999999/*", "bytes 0--1/*"] {
                try await client.execute(
                    uri: "/api/uploads/\(id)", method: .put, headers: [.contentRange: header], body: ByteBuffer(string: "abc")
                ) { response throws in
                    #expect(response.status == .badRequest, "\(header)")
                    #expect(response.errorMessage.contains("Content-Range"), "\(header)")
                }
            }
            try await client.execute(uri: "/api/uploads/\(id)", method: .put, headers: [.contentRange: "bytes 0-2/*"], body: ByteBuffer(string: "abc")) {
                response throws in
                #expect(response.status == .ok)
                #expect(try response.json(UploadBody.self).offset == 3)
            }
        }
    }

    @Test func metadataEditsValidateAndShowEpisodeAndLiveDates() async throws {
        let temp = try EmptyLibrary()
        defer { temp.cleanUp() }
        let asset = Asset(title: "Recording", duration: 3600, status: .ready)
        _ = try await temp.library.store.insert(asset, job: false)
        try await temp.application().test(.router) { client in
            try await client.execute(
                uri: "/api/assets/\(asset.id)/metadata", method: .put,
                body: .json(#"{"liveStartDate": "2026-11-20T21:00:00Z", "liveEndDate": "2026-11-20T20:00:00Z"}"#)
            ) { response throws in
                #expect(response.status == .badRequest)
                #expect(response.errorMessage.contains("before"))
            }
            try await client.execute(
                uri: "/api/assets/\(asset.id)/metadata", method: .put,
                body: .json(#"{"season": -1}"#)
            ) { response throws in
                #expect(response.status == .badRequest)
            }
            try await client.execute(
                uri: "/api/assets/\(asset.id)/metadata", method: .put,
                body: .json(
                    """
                    {"title": "Concert", "seriesTitle": "Live at Home", "season": 1, "episode": 3, "episodeTitle": "Encore",
                     "releaseDate": "2026-11-21", "liveStartDate": "2026-11-20T19:00:00Z", "liveEndDate": "2026-11-20T21:30:00Z"}
                    """)
            ) { response throws in
                #expect(response.status == .ok)
                let shown = try response.json(AssetResource.self)
                #expect(shown.title == "Concert")
                #expect(shown.series?.label == "S1 · E3 — Encore")
                #expect(shown.releaseDate == "2026-11-21")
                #expect(shown.liveEndDate.map { $0.timeIntervalSince(shown.liveStartDate!) } == 9000)
            }
            try await client.execute(uri: "/api/assets/\(asset.id)/position", method: .put, body: .json(#"{"position": 1200}"#)) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/assets/\(asset.id)", method: .get) { response throws in
                let shown = try response.json(AssetResource.self)
                #expect(shown.playback?.resumeTime == 1200)
                #expect(shown.playback?.fraction.map { abs($0 - 1.0 / 3) < 1e-9 } == true)
            }
            // Past the end is the end (watched), not a refusal: nothing left to resume.
            try await client.execute(uri: "/api/assets/\(asset.id)/position", method: .put, body: .json(#"{"position": 99999}"#)) { response throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/assets/\(asset.id)", method: .get) { response throws in
                let shown = try response.json(AssetResource.self)
                #expect(shown.playback?.fraction == 1)
                #expect(shown.playback?.resumeTime == nil)
            }
            // Artwork: an image becomes the override; anything else is refused.
            try await client.execute(uri: "/api/assets/\(asset.id)/artwork", method: .put, body: ByteBuffer(string: "not an image")) { response throws in
                #expect(response.status == .unsupportedMediaType)
            }
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 64)
            try await client.execute(uri: "/api/assets/\(asset.id)/artwork", method: .put, body: ByteBuffer(bytes: png)) { response throws in
                #expect(response.status == .ok)
                let artwork = try #require(try response.json(AssetResource.self).artworkURL)
                #expect(artwork.hasPrefix("/media/\(asset.id)/artwork-") && artwork.hasSuffix(".png"))
                let file = temp.library.location.bundleDirectory(for: asset.id).appendingPathComponent((artwork as NSString).lastPathComponent)
                #expect(try Data(contentsOf: file) == Data(png))
            }
        }
        // The player shows the series as the title and "S1 · E3 — Encore" beneath, with the live dates.
        let shown = try await temp.library.displayed(try #require(try await temp.library.store.asset(id: asset.id)))
        let metadata = DisplayMetadata(shown)
        #expect(metadata.title == "Live at Home")
        #expect(metadata.subtitle == "S1 · E3 — Encore")
        #expect(metadata.liveStartDate == "2026-11-20T19:00:00Z")
    }

    @Test func positionRecorderStoresThrottledAndForgetsAtTheEnd() {
        let now = Date()
        typealias R = PlaybackPositionRecorder
        #expect(R.decide(status: .playing, time: 12, duration: 60, inInterstitial: false, last: nil, now: now, interval: 5, final: false) == .store(12))
        #expect(
            R.decide(
                status: .playing, time: 14, duration: 60, inInterstitial: false, last: (12, now.addingTimeInterval(-2)), now: now, interval: 5, final: false)
                == .skip)
        #expect(
            R.decide(
                status: .playing, time: 18, duration: 60, inInterstitial: false, last: (12, now.addingTimeInterval(-6)), now: now, interval: 5, final: false)
                == .store(18))
        #expect(
            R.decide(status: .paused, time: 14, duration: 60, inInterstitial: false, last: (12, now.addingTimeInterval(-1)), now: now, interval: 5, final: true)
                == .store(14))
        #expect(
            R.decide(
                status: .paused, time: 15, duration: 60, inInterstitial: false, last: (12, now.addingTimeInterval(-1)), now: now, interval: 5, final: false)
                == .store(15))
        #expect(R.decide(status: .playing, time: 0.4, duration: 60, inInterstitial: false, last: nil, now: now, interval: 5, final: false) == .skip)
        #expect(R.decide(status: .playing, time: 30, duration: 60, inInterstitial: true, last: nil, now: now, interval: 5, final: false) == .skip)
        #expect(R.decide(status: .ended, time: 60, duration: 60, inInterstitial: false, last: (50, now), now: now, interval: 5, final: false) == .forget)
        #expect(R.decide(status: .loading, time: 0, duration: nil, inInterstitial: false, last: nil, now: now, interval: 5, final: true) == .skip)
    }
}
