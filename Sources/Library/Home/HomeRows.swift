public import Foundation

/// The home screen's rows for one viewer: what they are part-way through, the next episode of
/// each series they are watching, and what was added lately. Pure: assets and one viewer's
/// progress in, rows out; the store reads and the page renders.
public struct HomeRows: Sendable, Hashable {
    /// A Continue watching entry: the item and how far this viewer got.
    public struct Entry: Sendable, Hashable {
        /// The item, overrides applied.
        public var shown: DisplayedAsset
        /// This viewer's progress in it.
        public var progress: ViewingProgress
    }

    /// A Next up entry: the episode to watch next, and the one watched before it.
    public struct NextEpisode: Sendable, Hashable {
        /// The episode to watch next.
        public var shown: DisplayedAsset
        /// The episode this viewer watched last in the series.
        public var after: DisplayedAsset
        /// This viewer's progress in `shown`, when they had started and left it.
        public var progress: ViewingProgress?
    }

    /// The limits and windows the rules use.
    public struct Rules: Sendable, Hashable {
        /// The most entries a row holds.
        public var rowLimit = 20
        /// How recent an addition must be for Recently added.
        public var recentWindow: TimeInterval = 14 * 24 * 3600

        /// The default rules: 20 per row, the last 14 days.
        public init() {}
    }

    /// Started and not finished, most recently watched first.
    public var continueWatching: [Entry]
    /// For each series in progress, its next unwatched episode, most recently watched series first.
    public var nextUp: [NextEpisode]
    /// Ready items added within the window, newest first.
    public var recentlyAdded: [DisplayedAsset]

    /// The rows from every visible asset and one viewer's progress (any order).
    ///
    /// Only ready features count (not interstitials, not items still packaging or failed).
    /// Next up follows each series from the episode this viewer touched last: when that one is
    /// in progress the series is already in Continue watching; when it is watched, the first
    /// episode after it that is not watched is next (skipped when it is in Continue watching).
    public static func make(assets: [DisplayedAsset], history: [ViewingProgress], now: Date = Date(), rules: Rules = Rules()) -> HomeRows {
        let playable = assets.filter { $0.asset.role == .feature && $0.asset.status == .ready }
        let byID = Dictionary(playable.map { ($0.asset.id, $0) }, uniquingKeysWith: { first, _ in first })
        let latestFirst = history.sorted { $0.updatedAt > $1.updatedAt }
        let progress = Dictionary(latestFirst.map { ($0.assetID, $0) }, uniquingKeysWith: { first, _ in first })

        let continueWatching = latestFirst.filter(\.isInProgress).compactMap { entry in
            byID[entry.assetID].map { Entry(shown: $0, progress: entry) }
        }
        let inProgress = Set(continueWatching.map(\.shown.asset.id))

        var nextUp: [NextEpisode] = []
        var seenSeries: Set<String> = []
        let episodesBySeries = Dictionary(grouping: playable.filter { $0.episode != nil }) {
            SeriesGrouping.seriesKey($0.episode!.seriesTitle)
        }
        for entry in latestFirst {
            guard let shown = byID[entry.assetID], let episode = shown.episode else { continue }
            let key = SeriesGrouping.seriesKey(episode.seriesTitle)
            guard seenSeries.insert(key).inserted else { continue }
            // The series' latest touch decides: still watching it means Continue watching has it.
            guard entry.isWatched, let episodes = episodesBySeries[key] else { continue }
            let order = SeriesGrouping.group(episodes).episodes
            guard let index = order.firstIndex(where: { $0.asset.id == shown.asset.id }) else { continue }
            guard let next = order[(index + 1)...].first(where: { progress[$0.asset.id]?.isWatched != true }),
                !inProgress.contains(next.asset.id)
            else { continue }
            nextUp.append(NextEpisode(shown: next, after: shown, progress: progress[next.asset.id]))
        }

        let since = now.addingTimeInterval(-rules.recentWindow)
        let recentlyAdded =
            playable
            .filter { $0.asset.createdAt >= since }
            .sorted { $0.asset.createdAt > $1.asset.createdAt }

        return HomeRows(
            continueWatching: Array(continueWatching.prefix(rules.rowLimit)),
            nextUp: Array(nextUp.prefix(rules.rowLimit)),
            recentlyAdded: Array(recentlyAdded.prefix(rules.rowLimit)))
    }
}
