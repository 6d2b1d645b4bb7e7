/// What a session tells its renderer to do. The renderer carries these out in order.
public enum RendererCommand: Sendable, Hashable {
    /// Play the current item at this rate.
    case play(rate: Double)
    case pause
    /// Move the current item's playhead to this time in seconds.
    case seek(to: Double)
    /// Leave the primary item and play this interstitial from its start at `rate`
    /// (or load it paused when `rate` is 0).
    case playInterstitial(InterstitialEvent, rate: Double)
    /// Go on, inside the playing event, to asset `index` (from 0) of its asset list, from its
    /// start at `rate` (0 = load paused): the event's clock, skip control and playout limit run on.
    case playInterstitialAsset(InterstitialEvent, asset: InterstitialAsset, index: Int, rate: Double)
    /// Go back to the primary item at `time`, playing at `rate` (0 means stay paused).
    case resumePrimary(at: Double, rate: Double)
    case selectAudio(id: String)
    /// Show this subtitle rendition, or none.
    case selectSubtitles(id: String?)
    /// Set the media element's volume (0...1) and whether it is muted.
    case setVolume(level: Double, muted: Bool)
}
