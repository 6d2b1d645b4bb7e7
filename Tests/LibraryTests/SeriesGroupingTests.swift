import Foundation
import Testing

@testable import Library

@Suite("Series grouping")
struct SeriesGroupingTests {
    func item(
        _ title: String, series: String? = nil, season: Int? = nil, episode: Int? = nil, added: TimeInterval = 0,
        duration: Double = 60
    ) -> DisplayedAsset {
        let asset = Asset(
            id: title, title: title, duration: duration, status: .ready, createdAt: Date(timeIntervalSince1970: added),
            episode: series.map { Episode(seriesTitle: $0, season: season, number: episode) })
        return asset.displayed(with: nil, defaultArtworkURL: nil)
    }

    @Test func episodesOfASeriesBecomeOneItemInViewingOrder() throws {
        // Added out of order, across seasons, one without a number, one without a season.
        let assets = [
            item("s2e1", series: "Show", season: 2, episode: 1, added: 5),
            item("Film", added: 4),
            item("s1e10", series: "Show", season: 1, episode: 10, added: 3),
            item("s1e2", series: "show", season: 1, episode: 2, added: 2),
            item("s1-extra", series: "Show", season: 1, added: 6),
            item("special", series: "Show", added: 1),
            item("s1e1", series: "Show", season: 1, episode: 1, added: 7),
        ]
        let shelf = SeriesGrouping.shelf(assets)
        #expect(shelf.count == 2)
        guard case .series(let series) = shelf[0] else {
            Issue.record("the newest item should be the series")
            return
        }
        #expect(series.title == "Show")
        #expect(series.seasons.map(\.number) == [1, 2, nil])
        #expect(series.episodes.map(\.asset.id) == ["s1e1", "s1e2", "s1e10", "s1-extra", "s2e1", "special"])
        #expect(shelf[1].title == "Film")
    }

    @Test func nextEpisodeCrossesSeasonsAndStopsAtTheEnd() {
        let assets = [
            item("a1", series: "A", season: 1, episode: 1), item("a2", series: "A", season: 1, episode: 2),
            item("b1", series: "A", season: 2, episode: 1), item("other", series: "B", season: 1, episode: 3), item("film"),
        ]
        #expect(SeriesGrouping.episode(after: "a1", in: assets)?.asset.id == "a2")
        #expect(SeriesGrouping.episode(after: "a2", in: assets)?.asset.id == "b1")
        #expect(SeriesGrouping.episode(after: "b1", in: assets) == nil)
        #expect(SeriesGrouping.episode(after: "other", in: assets) == nil)
        #expect(SeriesGrouping.episode(after: "film", in: assets) == nil)
    }

    @Test func sortingByTitleAndDurationTreatsASeriesAsOneItem() {
        let assets = [
            item("Zebra", added: 3, duration: 10), item("apple", added: 1, duration: 500),
            item("m1", series: "Middle", season: 1, episode: 1, added: 2, duration: 100),
            item("m2", series: "Middle", season: 1, episode: 2, added: 0, duration: 100),
        ]
        #expect(SeriesGrouping.shelf(assets, order: .title).map(\.title) == ["apple", "Middle", "Zebra"])
        #expect(SeriesGrouping.shelf(assets, order: .duration).map(\.title) == ["Zebra", "Middle", "apple"])
        #expect(SeriesGrouping.shelf(assets, order: .recentlyAdded).map(\.title) == ["Zebra", "Middle", "apple"])
    }

    @Test func overridesMoveAnItemIntoASeries() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let store = temp.library.store
        let first = Asset(title: "Show - S01E01", status: .ready, episode: EpisodeParser.parse(fileName: "Show - S01E01.mp4"))
        let loose = Asset(title: "Bonus clip", status: .ready)
        _ = try await store.insert(first, job: false)
        _ = try await store.insert(loose, job: false)
        #expect(try await temp.library.shelf().count == 2)
        try await store.setOverride(
            MetadataOverride(
                assetID: loose.id, seriesTitle: "Show", seasonNumber: 1, episodeNumber: 2,
                episodeTitle: "Bonus"))
        let shelf = try await temp.library.shelf()
        #expect(shelf.count == 1)
        #expect(try await temp.library.nextEpisode(after: first.id)?.asset.id == loose.id)
        #expect(try await temp.library.nextEpisode(after: first.id)?.episode?.label == "S1 · E2 — Bonus")
    }
}
