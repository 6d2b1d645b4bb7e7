import Foundation
import Hummingbird
import HummingbirdTesting
import MediaTesting
import NIOFoundationCompat

@testable import Library
@testable import MarqueeServer

/// One packaged library shared by the server tests: a 4-second clip with English and French
/// audio and English subtitles, and a 2-second ad scheduled into it at 2 s.
struct ServerFixture: Sendable {
    let root: URL
    let library: MediaLibrary
    let clipID: String
    let adID: String

    static let shared = Task { try await ServerFixture.make() }

    static func make() async throws -> ServerFixture {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent("data")))
        var clipRecipe = TestClip.bilingual(seconds: 4, title: "Fixture Clip")
        clipRecipe.subtitleSeconds = 3
        clipRecipe.metadata["comment"] = "Embedded description"
        let clip = try await clipRecipe.write(to: root.appendingPathComponent("clip.mp4"))
        let ad = try await TestClip.ad().write(to: root.appendingPathComponent("ad.mp4"))
        let clipAsset = try await library.add(paths: [clip.path])[0]
        let adAsset = try await library.add(paths: [ad.path], role: .interstitial)[0]
        await library.worker.drain()
        try await library.store.schedule(ScheduledInterstitial(assetID: clipAsset.id, interstitialAssetID: adAsset.id, time: 2))
        return ServerFixture(root: root, library: library, clipID: clipAsset.id, adID: adAsset.id)
    }

    func application() -> some ApplicationProtocol {
        MarqueeServer(library: library).application(host: "127.0.0.1", port: 0)
    }
}

extension TestResponse {
    func json<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(buffer: body))
    }

    var text: String { String(buffer: body) }

    /// The message of a JSON error response, or "" when the body is not one.
    var errorMessage: String { (try? json(APIErrorBody.self).error.message) ?? "" }
}

extension ByteBuffer {
    static func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }
}
