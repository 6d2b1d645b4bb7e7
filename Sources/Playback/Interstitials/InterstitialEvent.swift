/// Content that plays in the middle of the primary item, such as an ad, at a point on its timeline.
///
/// Modelled on `AVPlayerInterstitialEvent`: the event happens when primary playback reaches
/// `time` (or before it starts, for a pre-roll at 0, or after it ends, for a post-roll),
/// plays the item at `url`, then primary playback resumes `resumptionOffset` seconds later
/// than where it left (0 for an inserted ad, the event's duration for a replacing one).
public struct InterstitialEvent: Sendable, Hashable, Codable, Identifiable {
    /// When an event plays relative to the primary item.
    public enum Cue: String, Sendable, Hashable, Codable {
        /// At `time` on the primary timeline.
        case none
        /// Before primary playback starts, whatever `time` says.
        case joinCue
        /// After the primary item ends.
        case leaveCue
    }

    public var id: String
    public var time: Double
    public var url: String
    public var duration: Double
    public var resumptionOffset: Double
    public var restrictions: InterstitialRestrictions
    public var cue: Cue

    public init(
        id: String,
        time: Double,
        url: String,
        duration: Double,
        resumptionOffset: Double = 0,
        restrictions: InterstitialRestrictions = [],
        cue: Cue = .none
    ) {
        self.id = id
        self.time = time
        self.url = url
        self.duration = duration
        self.resumptionOffset = resumptionOffset
        self.restrictions = restrictions
        self.cue = cue
    }
}

/// What a viewer may not do around an interstitial, as in `AVPlayerInterstitialEvent.Restrictions`.
public struct InterstitialRestrictions: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Seeking from before the event to after it plays the event first.
    public static let constrainsSeekingForwardInPrimaryContent = InterstitialRestrictions(rawValue: 1 << 0)
    /// The event plays at 1× and cannot be skipped or scrubbed through.
    public static let requiresPlaybackAtPreferredRateForAdvancement = InterstitialRestrictions(rawValue: 1 << 1)
}
