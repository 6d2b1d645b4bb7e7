import Foundation
import Testing

@testable import Library

@Suite("Home screen rows: Continue watching, Next up, Recently added")
struct HomeRowsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func item(
        _ id: String, _ title: String, duration: Double = 600, addedDaysAgo: Double = 30, status: Asset.Status = .ready,
        role: Asset.Role = .feature, episode: Episode? = nil
    ) -> DisplayedAsset {
        Asset(
            id: id, title: title, duration: duration, status: status, role: role,
            createdAt: now.addingTimeInterval(-addedDaysAgo * 86_400), episode: episode
        ).displayed(with: nil, defaultArtworkURL: nil)
    }

    static func seen(
        _ id: String, at position: Double, of duration: Double = 600, finished: Bool = false, minutesAgo: Double, viewer: String = "local"
    )
        -> ViewingProgress
    {
        ViewingProgress(
            viewer: viewer, assetID: id, position: position, duration: duration, finished: finished,
            updatedAt: now.addingTimeInterval(-minutesAgo * 60))
    }

    @Test func continueWatchingHoldsStartedUnfinishedItemsMostRecentFirst() {
        let assets = ["a", "b", "c", "d", "e"].map { Self.item($0, $0.uppercased()) }
        let history = [
            Self.seen("a", at: 120, minutesAgo: 50),
            Self.seen("b", at: 300, minutesAgo: 5),
            Self.seen("c", at: 3, minutesAgo: 1),  // only the first seconds: not started
            Self.seen("d", at: 590, minutesAgo: 2),  // the last 5 %: as good as finished
            Self.seen("e", at: 600, finished: true, minutesAgo: 3),
        ]
        let rows = HomeRows.make(assets: assets, history: history, now: Self.now)
        #expect(rows.continueWatching.map(\.shown.asset.id) == ["b", "a"])
        #expect(rows.continueWatching[0].progress.fraction == 0.5)
        #expect(rows.continueWatching[0].progress.remaining == 300)
    }

    @Test func itemsNotReadyOrAdsNeverShow() {
        let assets = [
            Self.item("busy", "Busy", addedDaysAgo: 0, status: .processing), Self.item("ad", "Ad", addedDaysAgo: 0, role: .interstitial),
            Self.item("gone", "Failed", addedDaysAgo: 0, status: .failed),
        ]
        let history = assets.map { Self.seen($0.asset.id, at: 100, minutesAgo: 1) }
        let rows = HomeRows.make(assets: assets, history: history, now: Self.now)
        #expect(rows.continueWatching.isEmpty && rows.nextUp.isEmpty && rows.recentlyAdded.isEmpty)
    }

    @Test func nextUpIsTheEpisodeAfterTheLastOneWatched() {
        let show = (1...3).map { (n: Int) in Self.item("s\(n)", "Show S01E0\(n)", episode: Episode(seriesTitle: "Show", season: 1, number: n)) }
        let other = (1...2).map { (n: Int) in Self.item("o\(n)", "Other \(n)", episode: Episode(seriesTitle: "Other", season: 1, number: n)) }
        // Show: episode 1 finished. Other: episode 1 in progress (Continue watching has it, no Next up).
        var rows = HomeRows.make(
            assets: show + other,
            history: [Self.seen("s1", at: 600, finished: true, minutesAgo: 10), Self.seen("o1", at: 200, minutesAgo: 5)], now: Self.now)
        #expect(rows.nextUp.map(\.shown.asset.id) == ["s2"])
        #expect(rows.nextUp.first?.after.asset.id == "s1")
        #expect(rows.continueWatching.map(\.shown.asset.id) == ["o1"])

        // Episodes 1 and 2 watched (2 out of order, earlier): next is 3; all three watched: nothing.
        rows = HomeRows.make(
            assets: show,
            history: [Self.seen("s2", at: 600, finished: true, minutesAgo: 60), Self.seen("s1", at: 599, minutesAgo: 10)], now: Self.now)
        #expect(rows.nextUp.map(\.shown.asset.id) == ["s3"])
        rows = HomeRows.make(assets: show, history: show.map { Self.seen($0.asset.id, at: 600, finished: true, minutesAgo: 1) }, now: Self.now)
        #expect(rows.nextUp.isEmpty)

        // The next episode already started: it is in Continue watching, not also in Next up.
        rows = HomeRows.make(
            assets: show,
            history: [Self.seen("s1", at: 600, finished: true, minutesAgo: 10), Self.seen("s2", at: 100, minutesAgo: 20)], now: Self.now)
        #expect(rows.continueWatching.map(\.shown.asset.id) == ["s2"])
        #expect(rows.nextUp.isEmpty)
    }

    @Test func nextUpFollowsAnOverriddenSeriesAcrossSeasons() {
        let first = Asset(id: "x1", title: "Pilot", duration: 600, status: .ready, createdAt: Self.now)
            .displayed(with: MetadataOverride(assetID: "x1", seriesTitle: "Saga", seasonNumber: 1, episodeNumber: 9), defaultArtworkURL: nil)
        let second = Self.item("x2", "Saga S02E01", episode: Episode(seriesTitle: "saga", season: 2, number: 1))
        let rows = HomeRows.make(
            assets: [second, first], history: [Self.seen("x1", at: 600, finished: true, minutesAgo: 1)], now: Self.now)
        #expect(rows.nextUp.map(\.shown.asset.id) == ["x2"])
    }

    @Test func recentlyAddedIsTheLastTwoWeeksNewestFirstAtMostTwenty() {
        var assets = (0..<25).map { Self.item("n\($0)", "New \($0)", addedDaysAgo: Double($0) * 0.1) }
        assets.append(Self.item("old", "Old", addedDaysAgo: 15))
        let rows = HomeRows.make(assets: assets.shuffled(), history: [], now: Self.now)
        #expect(rows.recentlyAdded.map(\.asset.id) == (0..<20).map { "n\($0)" })
    }

    @Test(arguments: StoreKind.allCases)
    func oneViewersProgressNeverShowsInAnothersHome(kind: StoreKind) async throws {
        let temp = try await TemporaryLibrary(kind)
        defer { temp.cleanUp() }
        let store = temp.library.store
        let film = Asset(title: "Film", duration: 600, status: .ready)
        _ = try await store.insert(film, job: false)
        try await store.recordViewing(ViewingProgress(viewer: "account:1", assetID: film.id, position: 120, duration: 600))
        try await store.recordViewing(ViewingProgress(viewer: "account:1", assetID: film.id, position: 240, duration: 600))

        let alice = try await temp.library.home(viewer: "account:1")
        #expect(alice.continueWatching.map(\.shown.asset.id) == [film.id])
        #expect(alice.continueWatching.first?.progress.position == 240)
        let bob = try await temp.library.home(viewer: "account:2")
        #expect(bob.continueWatching.isEmpty)
        #expect(bob.recentlyAdded.map(\.asset.id) == [film.id])

        // Finishing is kept (Next up needs it), and a trashed asset leaves the history.
        try await store.recordViewing(ViewingProgress(viewer: "account:2", assetID: film.id, position: 600, duration: 600, finished: true))
        #expect(try await store.viewingHistory(viewer: "account:2", limit: 10).map(\.finished) == [true])
        #expect(try await store.viewingHistory(viewer: "account:1", limit: 10).map(\.finished) == [false])
        // A page of cards asks for its own assets only, one viewer at a time.
        let other = Asset(title: "Other", duration: 60, status: .ready)
        _ = try await store.insert(other, job: false)
        try await store.recordViewing(ViewingProgress(viewer: "account:1", assetID: other.id, position: 30, duration: 60))
        let page = try await store.viewingProgress(viewer: "account:1", assetIDs: [film.id, "unknown"])
        #expect(page.keys.sorted() == [film.id])
        #expect(page[film.id]?.position == 240)
        #expect(try await store.viewingProgress(viewer: "account:2", assetIDs: [film.id, other.id]).mapValues(\.finished) == [film.id: true])
        #expect(try await store.viewingProgress(viewer: "account:1", assetIDs: []).isEmpty)
        _ = try await store.trash(id: film.id)
        #expect(try await store.viewingProgress(viewer: "account:1", assetIDs: [film.id, other.id]).keys.sorted() == [other.id])
        #expect(try await store.viewingHistory(viewer: "account:1", limit: 10).map(\.assetID) == [other.id])
        await #expect(throws: LibraryError.assetNotFound("nope")) {
            try await store.recordViewing(ViewingProgress(viewer: "account:1", assetID: "nope", position: 1, duration: nil))
        }
    }
}
