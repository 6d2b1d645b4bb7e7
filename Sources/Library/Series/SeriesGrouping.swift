public import Foundation

/// One entry of the library's shelf: a single item, or a series with its seasons and
/// episodes in order.
public enum ShelfItem: Sendable, Hashable {
    case asset(DisplayedAsset)
    case series(Series)

    /// A series: every item whose (overridden) series title matches, case-insensitively.
    public struct Series: Sendable, Hashable {
        public struct Season: Sendable, Hashable {
            /// `nil` for episodes without a season number.
            public var number: Int?
            public var episodes: [DisplayedAsset]
        }

        public var title: String
        public var seasons: [Season]

        /// Every episode, season by season, in viewing order.
        public var episodes: [DisplayedAsset] { seasons.flatMap(\.episodes) }
        public var newest: Date { episodes.map(\.asset.createdAt).max() ?? .distantPast }
        public var totalDuration: Double { episodes.compactMap(\.asset.duration).reduce(0, +) }
    }

    public var title: String {
        switch self {
        case .asset(let shown): shown.title
        case .series(let series): series.title
        }
    }
}

/// How the shelf is ordered.
public enum ShelfOrder: String, Sendable, CaseIterable {
    case recentlyAdded = "recent", title, duration
}

/// Groups displayed assets into shelf items: episodes of one series become one item whose
/// seasons are in ascending order (episodes without a season last) and whose episodes are
/// by number (unnumbered last, then by title and date added).
public enum SeriesGrouping {
    public static func shelf(_ assets: [DisplayedAsset], order: ShelfOrder = .recentlyAdded) -> [ShelfItem] {
        var singles: [ShelfItem] = []
        var groups: [String: [DisplayedAsset]] = [:]
        var keys: [String] = []
        for shown in assets {
            guard let episode = shown.episode else {
                singles.append(.asset(shown))
                continue
            }
            let key = seriesKey(episode.seriesTitle)
            if groups[key] == nil { keys.append(key) }
            groups[key, default: []].append(shown)
        }
        let series = keys.map { ShelfItem.series(group(groups[$0]!)) }
        return sort(singles + series, by: order)
    }

    /// The series one group of episodes makes, seasons and episodes in order.
    public static func group(_ episodes: [DisplayedAsset]) -> ShelfItem.Series {
        let bySeason = Dictionary(grouping: episodes) { $0.episode?.season }
        let seasons = bySeason.keys.sorted { ascendingNilsLast($0, $1) }.map { number in
            ShelfItem.Series.Season(number: number, episodes: bySeason[number]!.sorted(by: episodeOrder))
        }
        // The title as most episodes spell it (ties: the oldest episode's spelling).
        let spellings = Dictionary(grouping: episodes.sorted { $0.asset.createdAt < $1.asset.createdAt }) { $0.episode!.seriesTitle }
        let title =
            spellings.max { a, b in
                a.value.count != b.value.count
                    ? a.value.count < b.value.count
                    : a.value[0].asset.createdAt > b.value[0].asset.createdAt
            }?.key ?? ""
        return ShelfItem.Series(title: title, seasons: seasons)
    }

    /// The episode after `assetID` in its series, across seasons; `nil` at the end or when
    /// the item is not an episode.
    public static func episode(after assetID: String, in assets: [DisplayedAsset]) -> DisplayedAsset? {
        guard let current = assets.first(where: { $0.asset.id == assetID }), let episode = current.episode else { return nil }
        let key = seriesKey(episode.seriesTitle)
        let order = group(assets.filter { $0.episode.map { seriesKey($0.seriesTitle) } == key }).episodes
        guard let index = order.firstIndex(where: { $0.asset.id == assetID }), index + 1 < order.count else { return nil }
        return order[index + 1]
    }

    static func seriesKey(_ title: String) -> String {
        title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }

    static func episodeOrder(_ a: DisplayedAsset, _ b: DisplayedAsset) -> Bool {
        let x = a.episode?.number
        let y = b.episode?.number
        if x != y { return ascendingNilsLast(x, y) }
        let titleOrder = (a.episode?.title ?? a.title).localizedStandardCompare(b.episode?.title ?? b.title)
        if titleOrder != .orderedSame { return titleOrder == .orderedAscending }
        return a.asset.createdAt < b.asset.createdAt
    }

    static func ascendingNilsLast(_ a: Int?, _ b: Int?) -> Bool {
        switch (a, b) {
        case (let x?, let y?): x < y
        case (.some, nil): true
        default: false
        }
    }

    static func sort(_ items: [ShelfItem], by order: ShelfOrder) -> [ShelfItem] {
        func added(_ item: ShelfItem) -> Date {
            switch item {
            case .asset(let shown): shown.asset.createdAt
            case .series(let series): series.newest
            }
        }
        func length(_ item: ShelfItem) -> Double {
            switch item {
            case .asset(let shown): shown.asset.duration ?? 0
            case .series(let series): series.totalDuration
            }
        }
        // Stable: ties keep the incoming (newest first) order.
        return items.enumerated().sorted { lhs, rhs in
            let (i, a) = lhs
            let (j, b) = rhs
            switch order {
            case .recentlyAdded:
                if added(a) != added(b) { return added(a) > added(b) }
            case .title:
                let result = a.title.localizedStandardCompare(b.title)
                if result != .orderedSame { return result == .orderedAscending }
            case .duration:
                if length(a) != length(b) { return length(a) < length(b) }
            }
            return i < j
        }.map(\.element)
    }
}
