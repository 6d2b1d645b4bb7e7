import Foundation
import Testing
@testable import Library

@Suite("Library store")
struct LibraryStoreTests {
    @Test func addingAFileQueuesAJobAndSurvivesReopening() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let file = temp.root.appendingPathComponent("Holiday Video.mp4")
        try Data("not really".utf8).write(to: file)
        let added = try await temp.library.add(paths: [file.path])
        #expect(added.map(\.title) == ["Holiday Video"])
        let reopened = try LibraryStore(url: temp.library.location.databaseURL)
        let jobs = try await reopened.jobs()
        #expect(jobs.count == 1)
        #expect(jobs.first?.state == .queued)
        #expect(try await reopened.asset(id: added[0].id)?.status == .pending)
    }

    @Test func addingAMissingPathFails() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        await #expect(throws: LibraryError.sourceNotFound("/nowhere/at/all.mp4")) {
            try await temp.library.add(paths: ["/nowhere/at/all.mp4"])
        }
    }

    @Test func addingAFolderFindsItsMediaFiles() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let folder = temp.root.appendingPathComponent("Trip")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("day2"), withIntermediateDirectories: true)
        for name in ["a.mp4", "day2/b.mkv", "notes.txt"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        let added = try await temp.library.add(paths: [folder.path])
        #expect(added.map(\.title).sorted() == ["a", "b"])
    }

    @Test func overridesWinAndSearchFindsThem() async throws {
        let temp = try TemporaryLibrary()
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
        #expect(try await store.assets().count == 2)
    }

    @Test func deletingRemovesTheRowAndBundleButNotTheSource() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let source = temp.root.appendingPathComponent("keep.mp4")
        try Data("x".utf8).write(to: source)
        let asset = try await temp.library.add(paths: [source.path])[0]
        let bundle = temp.library.location.bundleDirectory(for: asset.id)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try await temp.library.delete(assetID: asset.id)
        #expect(try await temp.library.store.asset(id: asset.id) == nil)
        #expect(try await temp.library.store.jobs().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
        #expect(FileManager.default.fileExists(atPath: source.path))
        await #expect(throws: LibraryError.assetNotFound(asset.id)) { try await temp.library.delete(assetID: asset.id) }
    }

    @Test func onlyFailedJobsCanBeRetried() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let store = temp.library.store
        let job = try #require(try await store.insert(Asset(title: "x"), job: true))
        let id = try #require(job.id)
        await #expect(throws: LibraryError.jobNotRetryable(id, state: "queued")) { try await store.retry(jobID: id) }
        await #expect(throws: LibraryError.jobNotFound(999)) { try await store.retry(jobID: 999) }
    }

    @Test func playerSettingsRoundTripAndRejectNonsense() async throws {
        let temp = try TemporaryLibrary()
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
