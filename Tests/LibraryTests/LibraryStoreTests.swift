import Foundation
import Testing

@testable import Library

/// One suite for every `LibraryStore`: each test runs against SQLite and against PostgreSQL.
@Suite("Library store")
struct LibraryStoreTests {
    @Test(arguments: StoreKind.allCases)
    func addingAFileQueuesAJobAndSurvivesReopening(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let file = temp.root.appendingPathComponent("Holiday Video.mp4")
        try Data("not really".utf8).write(to: file)
        let added = try await temp.library.add(paths: [file.path])
        #expect(added.map(\.title) == ["Holiday Video"])
        let reopened = try await temp.reopenedStore()
        let jobs = try await reopened.jobs()
        #expect(jobs.count == 1)
        #expect(jobs.first?.state == .queued)
        #expect(try await reopened.asset(id: added[0].id)?.status == .pending)
    }

    @Test(arguments: StoreKind.allCases)
    func addingAMissingPathFails(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        await #expect(throws: LibraryError.sourceNotFound("/nowhere/at/all.mp4")) {
            try await temp.library.add(paths: ["/nowhere/at/all.mp4"])
        }
        #expect(try await temp.library.store.assetCount() == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func addingAFolderFindsItsMediaFiles(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let folder = temp.root.appendingPathComponent("Trip")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("day2"), withIntermediateDirectories: true)
        for name in ["a.mp4", "day2/b.mkv", "notes.txt"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        let added = try await temp.library.add(paths: [folder.path])
        #expect(added.map(\.title).sorted() == ["a", "b"])
        #expect(try await temp.library.store.assets().map(\.title).sorted() == ["a", "b"])
    }

    @Test(arguments: StoreKind.allCases)
    func overridesWinAndSearchFindsThem(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let asset = Asset(title: "raw_file_01", subtitle: "Embedded subtitle", summary: "Embedded")
        _ = try await store.insert(asset, job: false)
        _ = try await store.insert(Asset(title: "Other"), job: false)
        try await store.setOverride(MetadataOverride(assetID: asset.id, title: "Sunset Over Kyoto", summary: "Filmed in autumn"))
        let shown = try await temp.library.displayed(asset)
        #expect(shown.title == "Sunset Over Kyoto")
        #expect(shown.subtitle == "Embedded subtitle")
        #expect(shown.summary == "Filmed in autumn")
        #expect(try await store.assets(matching: "kyoto").map(\.id) == [asset.id])
        #expect(try await store.assets(matching: "raw_file").map(\.id) == [asset.id])
        #expect(try await store.assets(matching: "%").isEmpty)
        #expect(try await store.assets(matching: "_").map(\.id) == [asset.id])
        #expect(try await store.assets().count == 2)
        await #expect(throws: LibraryError.self) { try await store.assets(matching: String(repeating: "x", count: 201)) }
    }

    @Test(arguments: StoreKind.allCases)
    func deletingRemovesTheRowAndBundleButNotTheSource(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let asset = try await temp.addPlaceholder(named: "keep.mp4")
        let source = temp.root.appendingPathComponent("keep.mp4")
        let bundle = temp.library.location.bundleDirectory(for: asset.id)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try await temp.library.delete(assetID: asset.id)
        #expect(try await temp.library.store.asset(id: asset.id) == nil)
        #expect(try await temp.library.store.jobs().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
        #expect(FileManager.default.fileExists(atPath: source.path))
        await #expect(throws: LibraryError.assetNotFound(asset.id)) { try await temp.library.delete(assetID: asset.id) }
    }

    @Test(arguments: StoreKind.allCases)
    func onlyFailedJobsCanBeRetried(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let job = try #require(try await store.insert(Asset(title: "x"), job: true))
        let id = try #require(job.id)
        await #expect(throws: LibraryError.jobNotRetryable(id, state: "queued")) { try await store.retry(jobID: id) }
        await #expect(throws: LibraryError.jobNotFound(999)) { try await store.retry(jobID: 999) }
        var failed = try #require(try await store.claimNextJob())
        failed.state = .failed
        failed.failureReason = "notMedia"
        try await store.save(failed)
        let retried = try await store.retry(jobID: id)
        #expect(retried.state == .queued && retried.failureReason == nil)
        #expect(try await store.job(id: id)?.state == .queued)
        #expect(try await store.asset(id: job.assetID)?.status == .pending)
    }

    @Test(arguments: StoreKind.allCases)
    func playerSettingsRoundTripAndRejectNonsense(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        #expect(try await store.playerSettings().speeds == nil)
        try await store.setPlayerSettings(PlayerSettings(speeds: []))
        #expect(try await store.playerSettings().speeds == [])
        try await store.setPlayerSettings(PlayerSettings(speeds: [1, 3]))
        #expect(try await store.playerSettings().speeds == [1, 3])
        await #expect(throws: LibraryError.self) { try await store.setPlayerSettings(PlayerSettings(speeds: [0])) }
        #expect(try await store.playerSettings().speeds == [1, 3])
    }
}

@Suite("Library location")
struct LibraryLocationTests {
    let location = LibraryLocation(dataDirectory: URL(fileURLWithPath: "/srv/marquee"))

    @Test(arguments: ["../library.sqlite", "a/../../x", "/etc/passwd", "", "..", "v0/%00", "a\\..\\b"])
    func pathsThatLeaveTheBundleAreRefused(path: String) {
        let resolved = location.resolve(path, inBundleOf: "abc")
        #expect(resolved == nil || resolved!.path.hasPrefix("/srv/marquee/media/abc/"))
        if path.contains("..") || path.isEmpty { #expect(resolved == nil) }
    }

    @Test func assetIDsCannotClimbEither() {
        #expect(location.resolve("master.m3u8", inBundleOf: "..") == nil)
        #expect(location.resolve("master.m3u8", inBundleOf: "../other") == nil)
    }

    @Test func ordinaryPathsResolveInsideTheBundle() {
        #expect(location.resolve("720p/segment001.m4s", inBundleOf: "abc")?.path == "/srv/marquee/media/abc/720p/segment001.m4s")
    }

    @Test func defaultFollowsXDG() {
        #expect(LibraryLocation.defaultDataDirectory(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"]).path == "/x/data/marquee")
        #expect(LibraryLocation.defaultDataDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.local/share/marquee")
    }
}
