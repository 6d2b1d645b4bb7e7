/// One asset of an event's asset list (`X-ASSET-LIST`): an entry of the list's `ASSETS` array,
/// its `URI` and its listed `DURATION`.
///
/// A renderer resolves an event's asset list when the break approaches and reports what it
/// holds (`RendererReport.interstitialAssetList`); from then on the session plays every asset
/// of the list in order, each counted in the break's "Ad N of M", while the event's skip
/// control, playout limit and resumption offset keep applying to the event as a whole.
public struct InterstitialAsset: Sendable, Hashable, Codable {
    /// What the renderer plays (absolute, as the renderer resolved it against the list's URL).
    public var uri: String
    /// The duration the list gives for it, in seconds, if any.
    public var duration: Double?

    public init(uri: String, duration: Double? = nil) {
        self.uri = uri
        self.duration = duration
    }
}

/// What a break plays next: an event from its start (`asset` nil: its content, or its asset
/// list's first asset), or a later asset of the event's resolved asset list (`index` ≥ 1).
///
/// The session names it (`PlaybackSession.nextInterstitialItem`) so a renderer can load it
/// while the current ad plays; the session still decides when it starts, with
/// `RendererCommand.playInterstitial` for an event and `.playInterstitialAsset` for an asset.
public struct InterstitialItem: Sendable, Hashable {
    public var event: InterstitialEvent
    /// The asset of `event`'s list, from its second on; nil for the event from its start.
    public var asset: InterstitialAsset?
    /// The asset's place in the list, from 0 (0 when `asset` is nil).
    public var index: Int

    public init(event: InterstitialEvent, asset: InterstitialAsset? = nil, index: Int = 0) {
        self.event = event
        self.asset = asset
        self.index = index
    }
}
