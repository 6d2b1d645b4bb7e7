/// What a renderer (the page's media element) tells its session it did or saw.
public enum RendererReport: Sendable, Hashable {
    /// The primary item's metadata loaded; its duration in seconds.
    case ready(duration: Double)
    /// The playhead of whatever is playing (primary item or interstitial) is here now.
    case time(Double)
    /// The media element is rendering frames again after waiting.
    case playing
    /// The media element ran out of data and waits.
    case stalled
    /// The current item (primary or interstitial) played to its end.
    case ended
    /// The media element failed; the message says what failed.
    case failed(message: String)
    /// The active interstitial could not load or play; the primary must go on without it.
    case interstitialFailed(message: String)
    /// The renderer resolved the asset list (`X-ASSET-LIST`) of the event with this ID (as its
    /// break approached): the assets it names, in order. The session plays each of them.
    case interstitialAssetList(eventID: String, assets: [InterstitialAsset])
    /// The browser refused to start playback without a gesture (autoplay policy).
    case autoplayBlocked
    /// The viewer changed the volume on the renderer itself (its slider, keys, mute button):
    /// its level, 0...1, and whether it is muted.
    case volume(level: Double, muted: Bool)
}

/// The item a renderer report is about: the primary, or one asset of an interstitial event (0
/// for an event without an asset list).
///
/// Reports and commands cross on the wire: when the session starts a break, ends an ad or
/// moves to the next asset, the renderer may already have sent a report about what played
/// before. A renderer that names the item each report is about lets the session drop such a
/// report instead of reading an ad's clock as the primary's time (or the primary's as the
/// ad's), or an ad's end as the end of the next one.
public enum RenderedItem: Sendable, Hashable {
    case primary
    case interstitial(eventID: String, assetIndex: Int)
}

extension RendererReport {
    /// Whether the report describes the item playing (its time, end, stalls or failure to
    /// play), so that one about another item is stale. The others (the primary's metadata,
    /// an asset list, the volume, the autoplay policy, the element failing) hold whatever plays.
    public var isAboutThePlayingItem: Bool {
        switch self {
        case .time, .playing, .stalled, .ended, .interstitialFailed: true
        case .ready, .failed, .interstitialAssetList, .autoplayBlocked, .volume: false
        }
    }
}
