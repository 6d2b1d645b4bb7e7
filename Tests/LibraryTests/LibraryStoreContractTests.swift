import EventFeed
import Foundation
import PostgreSQLStores
import ServiceTesting
import Testing

@testable import Library

/// The rest of the `LibraryStore` contract, run against both stores like the suite it extends.
extension LibraryStoreTests {
    @Test(arguments: StoreKind.allCases)
    func everyFieldOfAnAssetRoundTrips(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        var asset = Asset(
            title: "Pilot", subtitle: "First", summary: "It begins", duration: 1234.5, width: 1920, height: 1080,
            sourcePath: "/media/pilot.mkv", sourceMissing: true, status: .ready, role: .interstitial,
            badges: ["4K", "HDR", "CC"], createdAt: Date(timeIntervalSince1970: 1_700_000_000),
            episode: Episode(seriesTitle: "The Show", season: 2, number: 7, title: "Seven"))
        asset.releaseDate = "2024-05-01"
        asset.liveStartDate = Date(timeIntervalSince1970: 1_700_000_100)
        asset.liveEndDate = Date(timeIntervalSince1970: 1_700_000_200)
        asset.isProtected = true
        _ = try await store.insert(asset, job: false)
        #expect(try await store.asset(id: asset.id) == asset)

        var edited = asset
        edited.title = "Pilot (remastered)"
        edited.badges = []
        edited.episode = nil
        edited.liveEndDate = nil
        try await store.save(edited)
        #expect(try await store.asset(id: asset.id) == edited)
        #expect(try await temp.reopenedStore().asset(id: asset.id) == edited)
    }

    @Test(arguments: StoreKind.allCases)
    func trashHidesAndSavingATrashedAssetDoesNotBringItBack(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let asset = Asset(title: "Doomed", status: .processing)
        _ = try await store.insert(asset, job: false)
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try await store.trash(id: asset.id, at: when))
        #expect(try await !store.trash(id: asset.id, at: when))
        #expect(try await store.asset(id: asset.id) == nil)
        #expect(try await store.asset(id: asset.id, includingTrashed: true)?.deletedAt == when)
        #expect(try await store.assets().isEmpty)
        #expect(try await store.assetCount() == 1)

        // A job finishing on a deleted asset must not restore it.
        var finished = asset
        finished.status = .ready
        try await store.save(finished)
        #expect(try await store.asset(id: asset.id) == nil)
        #expect(try await store.asset(id: asset.id, includingTrashed: true)?.status == .ready)

        #expect(try await store.trashedAssets(before: when.addingTimeInterval(-1)).isEmpty)
        #expect(try await store.trashedAssets(before: when).map(\.id) == [asset.id])
        #expect(try await store.restore(id: asset.id))
        #expect(try await !store.restore(id: asset.id))
        #expect(try await store.asset(id: asset.id)?.deletedAt == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func listsAreNewestFirstAndDeletingTakesEverythingWithIt(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let sameTime = Date(timeIntervalSince1970: 1_750_000_000)
        let first = Asset(title: "First", createdAt: sameTime)
        let second = Asset(title: "Second", createdAt: sameTime)
        let older = Asset(title: "Older", createdAt: sameTime.addingTimeInterval(-60))
        for asset in [first, older, second] { _ = try await store.insert(asset, job: true) }
        #expect(try await store.assets().map(\.title) == ["Second", "First", "Older"])
        #expect(try await store.jobs().map(\.assetID) == [second.id, older.id, first.id])

        try await store.setOverride(MetadataOverride(assetID: first.id, title: "Renamed"))
        try await store.setPosition(PlaybackPosition(assetID: first.id, position: 42, duration: 100), for: first.id)
        #expect(try await store.deleteAsset(id: first.id))
        #expect(try await !store.deleteAsset(id: first.id))
        #expect(try await store.override(for: first.id) == nil)
        #expect(try await store.position(for: first.id) == nil)
        #expect(try await store.jobs(assetID: first.id).isEmpty)
        #expect(try await store.jobs().count == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func theLatestJobOfEveryAssetComesInOneCall(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let a = Asset(title: "A")
        let b = Asset(title: "B")
        let c = Asset(title: "C")
        _ = try await store.insert(a, job: true)
        _ = try await store.insert(b, job: true)
        _ = try await store.insert(c, job: false)
        var first = try #require(try await store.claimNextJob())
        #expect(first.assetID == a.id)
        first.state = .failed
        try await store.save(first)
        let again = try await store.retry(jobID: first.id!)
        let latest = try await store.latestJobs(for: [a.id, b.id, c.id, "nope"])
        #expect(Set(latest.keys) == [a.id, b.id])
        #expect(latest[a.id]?.id == again.id && latest[a.id]?.state == .queued)
        #expect(latest[b.id]?.assetID == b.id)
        #expect(try await store.latestJobs(for: []).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func playbackPositionsAndProtection(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let a = Asset(title: "A")
        let b = Asset(title: "B")
        for asset in [a, b] { _ = try await store.insert(asset, job: false) }
        let stamp = Date(timeIntervalSince1970: 1_760_000_000)
        try await store.setPosition(PlaybackPosition(assetID: a.id, position: 12.5, duration: nil, updatedAt: stamp), for: a.id)
        try await store.setPosition(PlaybackPosition(assetID: b.id, position: 30, duration: 60, updatedAt: stamp), for: b.id)
        try await store.setPosition(PlaybackPosition(assetID: b.id, position: 31, duration: 60, updatedAt: stamp), for: b.id)
        #expect(try await store.position(for: a.id) == PlaybackPosition(assetID: a.id, position: 12.5, duration: nil, updatedAt: stamp))
        #expect(try await store.positions(for: [a.id, b.id, "nope"]).mapValues(\.position) == [a.id: 12.5, b.id: 31])
        try await store.setPosition(nil, for: a.id)
        #expect(try await store.position(for: a.id) == nil)
        await #expect(throws: LibraryError.assetNotFound("nope")) {
            try await store.setPosition(PlaybackPosition(assetID: "nope", position: 1, duration: nil), for: "nope")
        }
        try await store.setProtected(true, assetID: a.id)
        #expect(try await store.asset(id: a.id)?.isProtected == true)
        await #expect(throws: LibraryError.assetNotFound("nope")) { try await store.setProtected(true, assetID: "nope") }
        #expect(try await store.overrides(for: []).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func interstitialsComeBackInTimeOrder(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let feature = Asset(title: "Feature")
        let ad = Asset(title: "Ad", role: .interstitial)
        for asset in [feature, ad] { _ = try await store.insert(asset, job: false) }
        try await store.schedule(ScheduledInterstitial(assetID: feature.id, interstitialAssetID: ad.id, time: 60, resumptionOffset: 0, restricted: false))
        try await store.schedule(ScheduledInterstitial(assetID: feature.id, interstitialAssetID: ad.id, time: 0, cue: "joinCue"))
        let scheduled = try await store.interstitials(for: feature.id)
        #expect(scheduled.map(\.time) == [0, 60])
        #expect(scheduled.map(\.cue) == ["joinCue", "none"])
        #expect(scheduled.map(\.restricted) == [true, false])
        #expect(scheduled.allSatisfy { $0.id != nil })
        #expect(try await store.interstitials(for: ad.id).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func workersSharingALibraryNeverClaimTheSameJob(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let count = 24
        for index in 0..<count { _ = try await temp.library.store.insert(Asset(title: "Clip \(index)"), job: true) }
        // Four claimers on two stores, as two processes with two workers each would be.
        let other = try await temp.reopenedStore()
        let stores: [any LibraryStore] = [temp.library.store, other, temp.library.store, other]
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for store in stores {
                group.addTask {
                    var mine: [Int64] = []
                    while let job = try await store.claimNextJob() {
                        #expect(job.state == .running && job.attempts == 1)
                        mine.append(try #require(job.id))
                    }
                    return mine
                }
            }
            return try await group.reduce(into: [Int64]()) { $0 += $1 }
        }
        #expect(claimed.count == count)
        #expect(Set(claimed).count == count)
        #expect(try await temp.library.store.jobs().allSatisfy { $0.state == .running })
        try await other.requeueInterruptedJobs()
        #expect(try await temp.library.store.jobs().allSatisfy { $0.state == .queued })
        #expect(try await temp.library.store.claimNextJob()?.attempts == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func writesArePublishedOnTheChangeFeed(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let feed = store.changes.subscribe()
        let asset = Asset(title: "Watched")
        _ = try await store.insert(asset, job: false)
        try await store.trash(id: asset.id)
        var iterator = feed.makeAsyncIterator()
        #expect(await iterator.next() == .assetChanged(asset.id))
        #expect(await iterator.next() == .assetRemoved(asset.id))
    }
}

/// What only a server database can do: tell every process what any one of them changed.
@Suite("Library store on PostgreSQL")
struct PostgreSQLStoreTests {
    @Test func changesMadeByAnotherProcessArriveOnTheFeed() async throws {
        let temp = try await TemporaryLibrary(.postgresql)
        defer { temp.cleanUp() }
        let node = temp.library.store
        let worker = try await temp.reopenedStore()
        let feed = node.changes.subscribe()
        let asset = Asset(title: "Made elsewhere")
        _ = try await worker.insert(asset, job: true)
        var job = try #require(try await worker.claimNextJob())
        job.progress = 0.5
        try await worker.save(job)
        try await worker.trash(id: asset.id)
        let seen = try await withTimeout(.seconds(10)) {
            var seen: [LibraryChange] = []
            for await change in feed {
                seen.append(change)
                if change == .assetRemoved(asset.id) { break }
            }
            return seen
        }
        #expect(seen.first == .assetChanged(asset.id))
        #expect(seen.last == .assetRemoved(asset.id))
        #expect(seen.count >= 3)
    }

    @Test func aSecondNodeStartingOnTheSameDatabaseDoesNotMigrateAgain() async throws {
        let temp = try await TemporaryLibrary(.postgresql)
        defer { temp.cleanUp() }
        _ = try await temp.library.store.insert(Asset(title: "Kept"), job: false)
        let stores = try await withThrowingTaskGroup(of: (any LibraryStore).self) { group in
            for _ in 0..<3 { group.addTask { try await temp.reopenedStore() } }
            return try await group.reduce(into: [any LibraryStore]()) { $0.append($1) }
        }
        for store in stores { #expect(try await store.assets().map(\.title) == ["Kept"]) }
    }

    @Test func aBadURLOrAnUnreachableServerSaysWhat() async throws {
        #expect(throws: ConfigurationError.self) { try DatabaseLocation(parsing: "postgres://127.0.0.1:5432/") }
        #expect(throws: ConfigurationError.self) { try DatabaseLocation(parsing: "postgres://u@127.0.0.1:5432/db?sslmode=sometimes") }
        let port = try FreePort.pick()
        let error = await #expect(throws: (any Error).self) {
            guard case .postgres(let info) = try DatabaseLocation(parsing: "postgres://marquee@127.0.0.1:\(port)/nothing?sslmode=disable") else { return }
            _ = try await PostgreSQLLibraryStore.open(info, timeout: .seconds(2))
        }
        #expect(String(describing: error!).contains("PostgreSQL could not connect to and migrate postgres://marquee@127.0.0.1:\(port)/nothing"))
    }
}

/// Runs `body`, failing if it takes longer than `limit`.
func withTimeout<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)  // the bound itself: real time is what it limits
            return nil
        }
        guard let first = try await group.next(), let value = first else {
            group.cancelAll()
            throw CancellationError()
        }
        group.cancelAll()
        return value
    }
}

extension LibraryStoreTests {
    @Test(arguments: StoreKind.allCases)
    func subtitleFilesRoundTripInOrderAndGoWithTheirAsset(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let asset = Asset(title: "Film", status: .ready)
        _ = try await store.insert(asset, job: false)
        let first = SubtitleFile(
            assetID: asset.id, language: "ja", label: "日本語", format: .ass, isForced: true, cueCount: 3,
            webVTT: "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<i>x</i>\n", createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        let second = SubtitleFile(
            assetID: asset.id, language: nil, label: "Subtitles", format: .subRip, cueCount: 1, webVTT: "WEBVTT\n",
            createdAt: Date(timeIntervalSince1970: 1_700_000_100))
        try await store.saveSubtitleFile(second)
        try await store.saveSubtitleFile(first)
        #expect(try await store.subtitleFiles(for: asset.id) == [first, second])
        #expect(try await temp.reopenedStore().subtitleFiles(for: asset.id) == [first, second])
        #expect(try await store.deleteSubtitleFile(id: second.id, assetID: asset.id))
        #expect(try await !store.deleteSubtitleFile(id: second.id, assetID: asset.id))
        #expect(try await !store.deleteSubtitleFile(id: first.id, assetID: "other"))
        #expect(try await store.deleteAsset(id: asset.id))
        #expect(try await store.subtitleFiles(for: asset.id).isEmpty)
    }
}
