import EventFeed
import Foundation
import GRDB
import MediaCore
import Testing

@testable import Library

@Suite("Store migrations, trash and playback positions")
struct MigrationTests {
    @Test func aVersion1LibraryOpensWithItsRowsIntactAndGainsTheNewColumns() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let url = temp.root.appendingPathComponent("old.sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path)
            try LibraryMigrations.migrator.migrate(queue, upTo: "v1: assets, overrides, jobs, interstitials, settings")
            try await queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO asset(id, title, status, role, badges, createdAt, sourceMissing) VALUES ('old', 'Old Film', 'ready', 'feature', '["HD"]', '2025-01-01 10:00:00.000', 0);
                        INSERT INTO metadataOverride(assetID, title) VALUES ('old', 'Renamed');
                        INSERT INTO ingestJob(assetID, state, progress, message, attempts, createdAt, updatedAt)
                            VALUES ('old', 'failed', 0, 'Could not read /secret/path.mp4: Invalid data', 1, '2025-01-01 10:00:00.000', '2025-01-01 10:00:00.000');
                        """)
            }
        }
        let store = try SQLiteLibraryStore(url: url)
        let asset = try #require(try await store.asset(id: "old"))
        #expect(asset.title == "Old Film" && asset.badges == ["HD"] && asset.episode == nil && asset.deletedAt == nil)
        #expect(try await store.override(for: "old")?.title == "Renamed")
        #expect(try await store.override(for: "old")?.seriesTitle == nil)
        #expect(try await store.jobs(assetID: "old").first?.failureReason == nil)
        let applied = try await store.database.read { db in try LibraryMigrations.migrator.appliedIdentifiers(db) }
        #expect(applied.count == LibraryMigrations.migrator.migrations.count)

        // The new columns hold what they are for.
        var updated = asset
        updated.episode = Episode(seriesTitle: "Old Show", season: 1, number: 4, title: "Four")
        updated.liveStartDate = Date(timeIntervalSince1970: 1_700_000_000)
        try await store.save(updated)
        let reread = try #require(try await store.asset(id: "old"))
        #expect(reread.episode == updated.episode)
        #expect(reread.liveStartDate == updated.liveStartDate)
    }

    @Test func trashHidesRestoreBringsBackAndPurgeRemovesForGood() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let library = temp.library
        let asset = Asset(title: "Doomed", status: .ready)
        _ = try await library.store.insert(asset, job: false)
        let bundle = library.location.bundleDirectory(for: asset.id)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let changes = library.store.changes.subscribe()

        try await library.trash(assetID: asset.id)
        #expect(try await library.store.asset(id: asset.id) == nil)
        #expect(try await library.store.assets().isEmpty)
        // A job finishing on a deleted asset saves it without bringing it back.
        var stale = asset
        stale.badges = ["HD"]
        try await library.store.save(stale)
        #expect(try await library.store.asset(id: asset.id) == nil)
        await #expect(throws: LibraryError.assetNotFound(asset.id)) { try await library.trash(assetID: asset.id) }

        #expect(try await library.restore(assetID: asset.id).badges == ["HD"])
        #expect(try await library.store.assets().map(\.id) == [asset.id])
        #expect(try await library.purgeTrash(before: Date()).isEmpty)

        try await library.trash(assetID: asset.id)
        #expect(try await library.purgeTrash(before: Date().addingTimeInterval(-60)).isEmpty, "not old enough yet")
        #expect(try await library.purgeTrash(before: Date()) == [asset.id])
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
        await #expect(throws: LibraryError.assetNotFound(asset.id)) { _ = try await library.restore(assetID: asset.id) }

        var seen: [LibraryChange] = []
        for await change in changes {
            seen.append(change)
            if seen.count == 5 { break }
        }
        // trash, the stale save (still removed), restore, trash, purge
        #expect(seen == [.assetRemoved(asset.id), .assetRemoved(asset.id), .assetChanged(asset.id), .assetRemoved(asset.id), .assetRemoved(asset.id)])
    }

    @Test func playbackPositionsAndWhereToResume() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let store = temp.library.store
        let asset = Asset(title: "Long", duration: 600, status: .ready)
        _ = try await store.insert(asset, job: false)
        try await store.setPosition(PlaybackPosition(assetID: asset.id, position: 125, duration: 600), for: asset.id)
        let stored = try #require(try await store.position(for: asset.id))
        #expect(stored.resumeTime == 125)
        #expect(stored.fraction.map { abs($0 - 125.0 / 600) < 1e-9 } == true)
        #expect(PlaybackPosition(assetID: "x", position: 3, duration: 600).resumeTime == nil, "the first seconds start over")
        #expect(PlaybackPosition(assetID: "x", position: 595, duration: 600).resumeTime == nil, "the end counts as watched")
        try await store.setPosition(nil, for: asset.id)
        #expect(try await store.position(for: asset.id) == nil)
        await #expect(throws: LibraryError.assetNotFound("nope")) {
            try await store.setPosition(PlaybackPosition(assetID: "nope", position: 1, duration: nil), for: "nope")
        }
    }

    @Test func failuresReadAsPlainWordsWithoutPaths() {
        let cases: [(any Error, IngestFailure.Reason)] = [
            (
                LibraryError.mediaFailed(
                    step: "read", path: "/srv/secret/a.mp4",
                    cause: MediaError(.open, url: "/srv/secret/a.mp4", message: "Invalid data found when processing input")), .notMedia
            ),
            // FFmpeg's code decides, whatever the words: AVERROR_INVALIDDATA is "not media", AVERROR(ENOSPC) a full disk.
            (
                LibraryError.mediaFailed(
                    step: "read", path: "/srv/secret/a.mp4",
                    cause: MediaError(.streamInfo, url: "/srv/secret/a.mp4", message: "probe failed", code: -0x4144_4E49)), .notMedia
            ),
            (
                LibraryError.mediaFailed(
                    step: "package", path: "/srv/secret/a.mp4",
                    cause: MediaError(.write, url: "/srv/secret/out", message: "write failed", code: -28)), .noSpace
            ),
            (
                LibraryError.mediaFailed(
                    step: "read", path: "/srv/secret/a.mp4", cause: MediaError(.open, url: "/srv/secret/a.mp4", message: "moov atom not found")), .unreadable
            ),
            (
                LibraryError.mediaFailed(
                    step: "package", path: "/srv/secret/a.mp4", cause: MediaError(.encode, url: "/srv/secret/a.mp4", message: "encoder error")),
                .packagingFailed
            ),
            (LibraryError.unsupportedSource("/srv/secret/a.bin"), .notMedia),
            // A bundle refused for a link says so, not "isn't a video".
            (LibraryError.unsafeBundle("/srv/secret/show", reason: "master.m3u8: is a symbolic link"), .unsafeBundle),
            (LibraryError.sourceNotFound("/srv/secret/a.mp4"), .sourceMissing),
            (LibraryError.toolFailed(tool: "ffmpeg", status: 1, message: "No space left on device"), .noSpace),
            (CancellationError(), .unknown),
        ]
        for (error, reason) in cases {
            let failure = IngestFailure(error)
            #expect(failure.reason == reason, "\(error)")
            #expect(!failure.message.contains("/srv"))
        }
    }
}
