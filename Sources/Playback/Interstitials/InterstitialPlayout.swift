/// A break in progress: the event playing, its clock, and the rest of the break.
///
/// A break is every event scheduled at one time (or every pre-roll, or every post-roll),
/// played in order. An event whose asset list (`X-ASSET-LIST`) has been resolved plays each
/// asset of the list in turn; each asset is one ad of the break ("Ad 2 of 3"), while the
/// event's clock runs on across its assets, so its skip control and playout limit apply to
/// the event as a whole. The primary resumes at `resumeAt` when the last one ends: where it
/// stopped plus the sum of the events' resumption offsets, or a seek's target when a
/// jump-restricted break interrupted the seek.
public struct InterstitialPlayout: Sendable, Hashable {
    public var event: InterstitialEvent
    /// Seconds into `event` (across the assets of its asset list).
    public var clock: Double
    /// The primary time playback resumes at after the break.
    public var resumeAt: Double
    /// The primary time where the primary stopped for the break.
    public var stoppedAt: Double
    /// The events still to play in this break after `event`.
    public var upNext: [InterstitialEvent]
    /// The resolved asset lists of this break's events, by event ID.
    public var assetLists: [String: [InterstitialAsset]]
    /// Which asset of `event`'s asset list plays, from 0 (0 for an event without a list).
    public var assetIndex: Int
    /// `clock` when the current asset started (the earlier assets' time).
    public var assetStart: Double
    /// The ads (assets, or events without a resolved list) of the break before `event`.
    public var adsBefore: Int

    public init(
        event: InterstitialEvent, clock: Double = 0, resumeAt: Double, stoppedAt: Double,
        upNext: [InterstitialEvent] = [], assetLists: [String: [InterstitialAsset]] = [:], adsBefore: Int = 0
    ) {
        self.event = event
        self.clock = clock
        self.resumeAt = resumeAt
        self.stoppedAt = stoppedAt
        self.upNext = upNext
        self.assetLists = assetLists
        self.assetIndex = 0
        self.assetStart = 0
        self.adsBefore = adsBefore
    }

    /// The assets of `event`'s resolved asset list (empty when it has none, or it is not resolved).
    public var assets: [InterstitialAsset] { assetLists[event.id] ?? [] }

    /// The asset playing now, if `event` plays a resolved asset list.
    public var asset: InterstitialAsset? { assets.indices.contains(assetIndex) ? assets[assetIndex] : nil }

    /// Seconds into the current asset.
    public var assetClock: Double { max(clock - assetStart, 0) }

    /// How many ads `event` counts as: its resolved asset list's assets, else one.
    func adCount(of event: InterstitialEvent) -> Int { max(assetLists[event.id]?.count ?? 1, 1) }

    /// The playing ad's place in the break, from 1 ("Ad 2 of 3").
    public var position: Int { adsBefore + assetIndex + 1 }

    /// How many ads the break has: each event counts its resolved asset list's assets, or one.
    public var count: Int { adsBefore + adCount(of: event) + upNext.reduce(0) { $0 + adCount(of: $1) } }

    /// Whether `event`'s next asset would still start before its playout limit, as far as the
    /// list's durations tell.
    private var nextAssetStartsBeforeLimit: Bool {
        guard let limit = event.playoutLimit, let duration = asset?.duration, duration > 0 else { return true }
        return assetStart + duration < limit
    }

    /// What plays after the current ad in this break: the next asset of `event`'s list, or the
    /// next event from its start; nil when the primary resumes next.
    public var next: InterstitialItem? {
        if assetIndex + 1 < assets.count, nextAssetStartsBeforeLimit {
            return InterstitialItem(event: event, asset: assets[assetIndex + 1], index: assetIndex + 1)
        }
        return upNext.first.map { InterstitialItem(event: $0) }
    }

    /// The same event moved on to the next asset of its list, if it has one; its clock runs on.
    func advancedToNextAsset() -> InterstitialPlayout? {
        guard assetIndex + 1 < assets.count else { return nil }
        var next = self
        next.assetIndex += 1
        next.assetStart = clock
        return next
    }

    /// The same break moved on to its next event, if it has one.
    func advanced() -> InterstitialPlayout? {
        guard let next = upNext.first else { return nil }
        return InterstitialPlayout(
            event: next, resumeAt: resumeAt, stoppedAt: stoppedAt, upNext: Array(upNext.dropFirst()),
            assetLists: assetLists, adsBefore: adsBefore + adCount(of: event))
    }
}
