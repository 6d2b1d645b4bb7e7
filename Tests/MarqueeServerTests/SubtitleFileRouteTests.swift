import Accounts
import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import MediaTesting
import NIOCore
import Testing

@testable import Library
@testable import MarqueeServer

@Suite("Subtitle files added to an item: API, permissions, HLS renditions, sidecars")
struct SubtitleFileRouteTests {
    static let srt = "1\n00:00:00,500 --> 00:00:01,500\nこんにちは\n"

    @Test func addListServeAndRemoveASubtitleFileBesideTheEmbeddedOne() async throws {
        let root = try ScratchFolder.make("subtitle-routes")
        defer { try? FileManager.default.removeItem(at: root) }
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent("data")))
        var recipe = TestClip.bilingual(seconds: 2, title: "Clip")
        recipe.subtitleSeconds = 1
        let clip = try await recipe.write(to: root.appendingPathComponent("clip.mp4"))
        // A sidecar next to the file is added with the language its name gives.
        try "1\n00:00:00,000 --> 00:00:01,000\nSidecar line\n".write(to: root.appendingPathComponent("clip.fr.srt"), atomically: true, encoding: .utf8)
        let asset = try await library.add(paths: [clip.path])[0]
        await library.worker.drain()
        let app = MarqueeServer(library: library).application(host: "127.0.0.1", port: 0)
        let label = "日本語".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        try await app.test(.router) { client in
            var added: SubtitleFileResource?
            try await client.execute(
                uri: "/api/assets/\(asset.id)/subtitles?language=jpn&label=\(label)", method: .post, body: ByteBuffer(string: Self.srt)
            ) { response throws in
                #expect(response.status == .created, "\(response.text)")
                added = try response.json(SubtitleFileResource.self)
            }
            let file = try #require(added)
            #expect(file.language == "ja" && file.label == "日本語" && file.format == "srt" && file.cueCount == 1)
            try await client.execute(uri: "/api/assets/\(asset.id)/subtitles", method: .get) { response throws in
                let list = try response.json(SubtitleFileList.self)
                #expect(list.subtitles.map(\.label) == ["Français", "日本語"])
            }
            // The multivariant playlist lists it in the variants' subtitle group, with the embedded track.
            try await client.execute(uri: "/media/\(asset.id)/master.m3u8", method: .get) { response throws in
                let playlist = try #require(PlaylistParser.parse(response.text, options: .strict).playlist?.multivariant)
                let subtitles = playlist.renditions.filter { $0.type == .subtitles }
                #expect(subtitles.count == 3, "\(response.text)")
                #expect(Set(subtitles.map(\.groupID)).count == 1)
                #expect(playlist.variants.allSatisfy { $0.subtitles == subtitles[0].groupID })
                let japanese = try #require(subtitles.first { $0.name == "日本語" })
                #expect(japanese.language == "ja" && japanese.uri == "subtitles/\(file.id).m3u8")
            }
            try await client.execute(uri: "/media/\(asset.id)/subtitles/\(file.id).m3u8", method: .get) { response throws in
                let media = try #require(PlaylistParser.parse(response.text).playlist?.media)
                #expect(media.segments.map(\.uri) == ["\(file.id).vtt"])
                #expect(abs(media.duration - 2) < 0.2)
            }
            try await client.execute(uri: file.url, method: .get) { response throws in
                #expect(response.text.hasPrefix("WEBVTT") && response.text.contains("00:00:00.500 --> 00:00:01.500\nこんにちは"))
            }
            try await client.execute(uri: "/api/assets/\(asset.id)/manifest.json", method: .get) { response throws in
                let manifest = try response.json(PlaybackManifest.self)
                let japanese = try #require(manifest.subtitles.first { $0.name == "日本語" })
                #expect(japanese.language == "ja" && japanese.urls == ["/media/\(asset.id)/subtitles/\(file.id).vtt"])
                #expect(manifest.subtitles.contains { $0.name == "Français" })
            }

            // Refusals, each with a sentence.
            let refusals: [(String, String, HTTPResponse.Status, String)] = [
                ("", "%PDF-1.7 not subtitles", .unsupportedMediaType, "not a subtitle file"),
                ("", "1\n00:00:01,000 --> garbage\nx\n", .unprocessableContent, "no subtitle with a readable time"),
                ("?language=english%20please", Self.srt, .badRequest, "not a language tag"),
                ("?forced=maybe", Self.srt, .badRequest, "\"forced\""),
                ("", "", .badRequest, "empty"),
            ]
            for (query, body, status, sentence) in refusals {
                try await client.execute(uri: "/api/assets/\(asset.id)/subtitles\(query)", method: .post, body: ByteBuffer(string: body)) { response throws in
                    #expect(response.status == status, "\(query) \(response.text)")
                    #expect(response.errorMessage.contains(sentence), "\(response.errorMessage)")
                }
            }
            let big = ByteBuffer(repeating: 0x41, count: SubtitleConversion.maximumBytes + 1)
            try await client.execute(uri: "/api/assets/\(asset.id)/subtitles", method: .post, body: big) { response throws in
                #expect(response.status == .contentTooLarge)
            }
            try await client.execute(uri: "/api/assets/nope/subtitles", method: .post, body: ByteBuffer(string: Self.srt)) { response throws in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/assets/\(asset.id)/subtitles/sub-00000000", method: .delete) { response throws in
                #expect(response.status == .notFound)
            }

            try await client.execute(uri: "/api/assets/\(asset.id)/subtitles/\(file.id)", method: .delete) { response throws in
                #expect(response.status == .noContent)
            }
            // Served files are trusted for a second before the disk is checked again.
            try await Task.sleep(for: .milliseconds(1200))
            try await client.execute(uri: "/media/\(asset.id)/master.m3u8", method: .get) { response throws in
                #expect(!response.text.contains("日本語") && response.text.contains("Français"))
            }
            try await client.execute(uri: file.url, method: .get) { response throws in
                #expect(response.status == .notFound)
            }
        }

        // The sidecar was written into the bundle by packaging itself (before the asset was ready).
        #expect(try await library.store.asset(id: asset.id)?.badges.contains("CC") == true)
    }

    @Test("The CC badge comes with the first added file and goes with the last when the media has no subtitles of its own")
    func theCCBadgeFollowsAddedFiles() async throws {
        let root = try ScratchFolder.make("subtitle-badge")
        defer { try? FileManager.default.removeItem(at: root) }
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent("data")))
        let clip = try await TestClip(seconds: 2).write(to: root.appendingPathComponent("plain.mp4"))
        let asset = try await library.add(paths: [clip.path])[0]
        await library.worker.drain()
        #expect(try await library.store.asset(id: asset.id)?.badges.contains("CC") == false)
        let file = try await library.addSubtitleFile(Data(Self.srt.utf8), to: asset.id, language: "ja", label: nil)
        #expect(try await library.store.asset(id: asset.id)?.badges.contains("CC") == true)
        try await library.removeSubtitleFile(id: file.id, from: asset.id)
        #expect(try await library.store.asset(id: asset.id)?.badges.contains("CC") == false)
    }

    @Test func onlyEditorsAddOrRemoveAndBrowsersList() {
        #expect(AccessRules.permission(method: .get, path: "/api/assets/a/subtitles") == .browse)
        #expect(AccessRules.permission(method: .post, path: "/api/assets/a/subtitles") == .manage)
        #expect(AccessRules.permission(method: .delete, path: "/api/assets/a/subtitles/sub-12345678") == .manage)
        #expect(AccessRules.permission(method: .put, path: "/api/assets/a/metadata") == .manage)
    }
}
