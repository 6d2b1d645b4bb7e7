import Foundation
import HLS
import Testing

@testable import Library

@Suite("Ingest jobs", .serialized)
struct IngestTests {
    @Test func packagesAClipIntoCMAFHLS() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await temp.makeClip()
        let asset = try await temp.library.add(paths: [clip.path])[0]
        await temp.library.worker.drain()

        let job = try #require(try await temp.library.store.jobs(assetID: asset.id).first)
        #expect(job.state == .succeeded, "\(job.message ?? "")")
        #expect(job.progress == 1)
        let ready = try #require(try await temp.library.store.asset(id: asset.id))
        #expect(ready.status == .ready)
        #expect(ready.title == "Embedded Title")
        #expect(abs((ready.duration ?? 0) - 3) < 0.2)
        #expect(ready.width == 320 && ready.height == 180)
        #expect(ready.badges.contains("CC"))
        #expect(ready.badges.contains("Multilingual"))
        #expect(!ready.badges.contains("HD"))

        #expect(ready.subtitle == "Marquee Tests")
        #expect(ready.summary == "An embedded description")

        // What the player relies on; the bundle itself is checked in BundlePackagerTests.
        let bundle = temp.library.location.bundleDirectory(for: asset.id)
        let master = try String(contentsOf: bundle.appendingPathComponent("master.m3u8"), encoding: .utf8)
        #expect(master.contains(#"NAME="English""#))
        #expect(master.contains(#"NAME="Français""#))
        #expect(master.contains(#"TYPE=SUBTITLES,GROUP-ID="subs""#))
        #expect(master.contains(#"SUBTITLES="subs""#))
        #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("poster.jpg").path))
        let trick = try JSONDecoder().decode(TrickPlayImages.self, from: Data(contentsOf: bundle.appendingPathComponent("trickplay.json")))
        #expect(trick.count == 3)
        #expect(trick.tileWidth == 160 && trick.tileHeight == 90)
    }

    @Test func aFailedJobSaysWhyAndCanBeRetried() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let bogus = temp.root.appendingPathComponent("broken.mp4")
        try Data("this is not a video".utf8).write(to: bogus)
        let asset = try await temp.library.add(paths: [bogus.path])[0]
        await temp.library.worker.drain()
        let failed = try #require(try await temp.library.store.jobs(assetID: asset.id).first)
        #expect(failed.state == .failed)
        // Plain words for a person, no server path; the code lets the page translate it.
        #expect(failed.message == "This file isn’t a video or audio file Marquee can play.", "\(failed.message ?? "")")
        #expect(failed.failureReason == "notMedia")
        #expect(failed.message?.contains(temp.root.path) == false)
        #expect(try await temp.library.store.asset(id: asset.id)?.status == .failed)

        // Fix the file and retry: the same job succeeds.
        try FileManager.default.removeItem(at: bogus)
        try FileManager.default.moveItem(at: try await temp.makeClip(named: "fixed.mp4", seconds: 2), to: bogus)
        let failedID = try #require(failed.id)
        let retried = try await temp.library.store.retry(jobID: failedID)
        #expect(retried.state == .queued)
        await temp.library.worker.drain()
        let done = try #require(try await temp.library.store.job(id: failedID))
        #expect(done.state == .succeeded)
        #expect(done.attempts == 1, "a retry starts afresh")
    }

    @Test func aVanishedSourceIsMarkedMissingNotDeleted() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await temp.makeClip(seconds: 2)
        let asset = try await temp.library.add(paths: [clip.path])[0]
        await temp.library.worker.drain()
        try FileManager.default.removeItem(at: clip)
        try await temp.library.refreshSourceAvailability()
        let after = try #require(try await temp.library.store.asset(id: asset.id))
        #expect(after.sourceMissing)
        #expect(after.status == .ready)
    }

    @Test func anHLSBundleFolderIsImported() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await temp.makeClip(seconds: 2)
        let first = try await temp.library.add(paths: [clip.path])[0]
        await temp.library.worker.drain()
        // Treat the packaged bundle as an offline download: copy it out and add the folder.
        let download = temp.root.appendingPathComponent("Offline Download")
        try FileManager.default.copyItem(at: temp.library.location.bundleDirectory(for: first.id), to: download)
        try FileManager.default.moveItem(at: download.appendingPathComponent("master.m3u8"), to: download.appendingPathComponent("playlist.m3u8"))
        let imported = try await temp.library.add(paths: [download.path])[0]
        #expect(imported.title == "Offline Download")
        await temp.library.worker.drain()
        let ready = try #require(try await temp.library.store.asset(id: imported.id))
        #expect(ready.status == .ready)
        #expect(abs((ready.duration ?? 0) - 2) < 0.2)
        #expect(FileManager.default.fileExists(atPath: temp.library.location.bundleDirectory(for: imported.id).appendingPathComponent("master.m3u8").path))
    }

    @Test func musicWithCoverArtIsIngestedAsAudio() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        // An MP3 (so the audio is transcoded) with a JPEG cover and tags, found by scanning a folder.
        let folder = temp.root.appendingPathComponent("Music")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cover = temp.root.appendingPathComponent("cover.jpg")
        let song = folder.appendingPathComponent("song.mp3")
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run([
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=orange:s=300x300:d=1", "-frames:v", "1", cover.path,
        ])
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run([
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=523:duration=4", "-i", cover.path,
            "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-c:v", "copy", "-disposition:v", "attached_pic", "-id3v2_version", "3",
            "-metadata", "title=Orange Song", "-metadata", "artist=The Testers", song.path,
        ])
        let added = try await temp.library.add(paths: [folder.path])
        #expect(added.count == 1)
        await temp.library.worker.drain()
        let ready = try #require(try await temp.library.store.asset(id: added[0].id))
        let messages = try await temp.library.store.jobs(assetID: ready.id).map { $0.message ?? "" }
        #expect(ready.status == .ready, "\(messages)")
        #expect(ready.title == "Orange Song" && ready.subtitle == "The Testers")
        #expect(abs((ready.duration ?? 0) - 4) < 0.3 && ready.width == nil && ready.height == nil)
        let bundle = temp.library.location.bundleDirectory(for: ready.id)
        let master = try #require(
            PlaylistParser.parse(
                try String(contentsOf: bundle.appendingPathComponent("master.m3u8"), encoding: .utf8),
                options: .strict
            ).playlist?.multivariant)
        #expect(master.variants.count == 1 && master.variants[0].attributes.codecs.allSatisfy { $0.hasPrefix("mp4a") })
        #expect(try Data(contentsOf: bundle.appendingPathComponent("poster.jpg")) == Data(contentsOf: cover))
        #expect(try await temp.library.posterPaths(for: [ready])[ready.id] != nil)
        #expect(!FileManager.default.fileExists(atPath: bundle.appendingPathComponent("trickplay.json").path))
    }

    @Test func aDownloadedBundleGetsItsTitlePosterAndTrickPlay() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await temp.makeClip(seconds: 2)
        let first = try await temp.library.add(paths: [clip.path])[0]
        await temp.library.worker.drain()
        // A bundle as `marquee download` leaves it: playlists and media, metadata.json, no thumbnails.
        let download = temp.root.appendingPathComponent("flight")
        try FileManager.default.copyItem(at: temp.library.location.bundleDirectory(for: first.id), to: download)
        for name in ["poster.jpg", "trickplay.jpg", "trickplay.json"] { try FileManager.default.removeItem(at: download.appendingPathComponent(name)) }
        try Data(#"{"title": "Flight Copy", "artwork": null}"#.utf8).write(to: download.appendingPathComponent("metadata.json"))
        let imported = try await temp.library.add(paths: [download.path])[0]
        await temp.library.worker.drain()
        let ready = try #require(try await temp.library.store.asset(id: imported.id))
        #expect(ready.status == .ready && ready.title == "Flight Copy")
        let bundle = temp.library.location.bundleDirectory(for: imported.id)
        let poster = try Data(contentsOf: bundle.appendingPathComponent("poster.jpg"))
        #expect(poster.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(try await temp.library.posterPaths(for: [ready])[ready.id] == "/media/\(imported.id)/poster.jpg")
        let sheet = try JSONDecoder().decode(TrickPlayImages.self, from: Data(contentsOf: bundle.appendingPathComponent("trickplay.json")))
        #expect(sheet.count >= 1 && Double(sheet.count) * sheet.interval >= 2 - sheet.interval)
        #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent(sheet.image).path))

        // Artwork the download brought is the poster, as it is.
        let withArtwork = temp.root.appendingPathComponent("with-artwork")
        try FileManager.default.copyItem(at: download, to: withArtwork)
        let art = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("artwork".utf8))
        try art.write(to: withArtwork.appendingPathComponent("artwork.jpg"))
        try Data(#"{"title": "With Art", "artwork": "artwork.jpg"}"#.utf8).write(to: withArtwork.appendingPathComponent("metadata.json"))
        let second = try await temp.library.add(paths: [withArtwork.path])[0]
        await temp.library.worker.drain()
        #expect(try Data(contentsOf: temp.library.location.bundleDirectory(for: second.id).appendingPathComponent("poster.jpg")) == art)
    }
}
