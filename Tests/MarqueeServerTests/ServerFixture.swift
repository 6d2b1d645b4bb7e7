import Foundation
import Hummingbird
import HummingbirdTesting

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
        let subtitles = root.appendingPathComponent("en.srt")
        try "1\n00:00:00,000 --> 00:00:03,000\nHello\n\n".write(to: subtitles, atomically: true, encoding: .utf8)
        let ffmpeg = ProcessRunner(executable: "/usr/bin/ffmpeg")
        let clip = root.appendingPathComponent("clip.mp4")
        try await ffmpeg.run([
            "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=24:duration=4",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-f", "lavfi", "-i", "sine=frequency=660:duration=4",
            "-i", subtitles.path, "-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-c:s", "mov_text",
            "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra", "-metadata:s:s:0", "language=eng",
            "-metadata", "title=Fixture Clip", "-metadata", "comment=Embedded description", clip.path,
        ])
        let ad = root.appendingPathComponent("ad.mp4")
        try await ffmpeg.run([
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "smptebars=size=320x180:rate=24:duration=2",
            "-f", "lavfi", "-i", "sine=frequency=880:duration=2", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", "-c:a", "aac", ad.path,
        ])
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
