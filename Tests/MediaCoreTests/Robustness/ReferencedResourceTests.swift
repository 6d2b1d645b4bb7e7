import Foundation
import Testing

@testable import MediaCore

/// A media file that is really a playlist must not make FFmpeg read other files: an isolated
/// file reads only itself, and a file opened as a URL reads only files in its own folder.
@Suite struct ReferencedResourceTests {
    struct Layout {
        var secret: String
        var outside: String
        var outsideFileURL: String
        var beside: String
    }

    /// `private/secret.ts` (a real clip), `uploads/evil.m3u8` naming it by absolute path,
    /// `uploads/evil-url.m3u8` naming it as a file:// URL, and `private/beside.m3u8` naming
    /// it relatively.
    static func layout() async throws -> Layout {
        let root = URL(fileURLWithPath: MediaFixtures.shared.scratch("references"))
        let privateFolder = root.appendingPathComponent("private")
        let uploads = root.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: privateFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        let secret = privateFolder.appendingPathComponent("secret.ts").path
        try await FFmpegTool.ffmpegOffPool(["-i", try await MediaFixtures.shared.counter(), "-c", "copy", "-f", "mpegts", secret])
        func playlist(_ uri: String) -> String {
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:10.0,\n\(uri)\n#EXT-X-ENDLIST\n"
        }
        let outside = uploads.appendingPathComponent("evil.m3u8").path
        try playlist(secret).write(toFile: outside, atomically: true, encoding: .utf8)
        let outsideURL = uploads.appendingPathComponent("evil-url.m3u8").path
        try playlist("file://" + secret).write(toFile: outsideURL, atomically: true, encoding: .utf8)
        let beside = privateFolder.appendingPathComponent("beside.m3u8").path
        try playlist("secret.ts").write(toFile: beside, atomically: true, encoding: .utf8)
        return Layout(secret: secret, outside: outside, outsideFileURL: outsideURL, beside: beside)
    }

    static func refusal(_ asset: MediaAsset) async -> MediaError? {
        do {
            _ = try await asset.load(.duration, .tracks)
            return nil
        } catch let error as MediaError {
            return error
        } catch {
            return nil
        }
    }

    @Test func isolatedFileNeverOpensWhatItNames() async throws {
        let files = try await Self.layout()
        for path in [files.outside, files.outsideFileURL, files.beside] {
            let error = try #require(await Self.refusal(MediaAsset(isolatedFile: URL(fileURLWithPath: path))), "\(path) was read")
            #expect(error.message.contains("refers to another resource"))
            #expect(error.message.contains("secret.ts"))
            #expect(error.message.contains("only the file itself is read"))
        }
        // The clip itself is fine as an isolated file.
        let (duration, _) = try await MediaAsset(isolatedFile: URL(fileURLWithPath: files.secret)).load(.duration, .tracks)
        #expect(abs(duration.seconds - 10) < 0.2)
    }

    @Test func fileURLReadsOnlyItsOwnFolder() async throws {
        let files = try await Self.layout()
        for path in [files.outside, files.outsideFileURL] {
            let error = try #require(await Self.refusal(MediaAsset(url: URL(fileURLWithPath: path))), "\(path) was read")
            #expect(error.message.contains("only files in its own folder are read"))
        }
        // An HLS bundle's playlist reads the segments beside it.
        let (duration, tracks) = try await MediaAsset(url: URL(fileURLWithPath: files.beside)).load(.duration, .tracks)
        #expect(abs(duration.seconds - 10) < 0.5)
        #expect(!tracks.isEmpty)
    }
}
