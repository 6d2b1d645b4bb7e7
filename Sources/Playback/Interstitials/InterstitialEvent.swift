/// Content that plays in the middle of the primary item, such as an ad, at a point on its timeline.
///
/// Modelled on `AVPlayerInterstitialEvent` and the HLS Interstitials date range
/// (`CLASS="com.apple.hls.interstitial"`): the event happens when primary playback reaches
/// `time` (or before it starts, for a pre-roll, or after it ends, for a post-roll), plays the
/// item at `url` (or each asset of the asset list at `assetListURL` in turn, resolved as the
/// break approaches: `InterstitialAsset`), then primary playback resumes `resumptionOffset` seconds later than where it
/// left (0 for an inserted ad, the event's duration for a replacing one).
public struct InterstitialEvent: Sendable, Hashable, Codable, Identifiable {
    /// When an event plays relative to the primary item (HLS `CUE`).
    public enum Cue: String, Sendable, Hashable, Codable {
        /// At `time` on the primary timeline.
        case none
        /// Before primary playback starts, whatever `time` says (`CUE="PRE"`).
        case joinCue
        /// After the primary item ends (`CUE="POST"`).
        case leaveCue
    }

    /// How the event shows on the primary timeline (`X-TIMELINE-OCCUPIES`).
    public enum TimelineOccupancy: String, Sendable, Hashable, Codable {
        /// A point: the break is inserted and takes no primary time.
        case singlePoint
        /// A range of `duration` seconds of primary time, drawn shaded.
        case range
    }

    public var id: String
    public var time: Double
    /// What the renderer loads to play the break (a playback manifest or an HLS URL).
    public var url: String
    /// An HLS Interstitials asset list (`X-ASSET-LIST`) resolved as the break approaches, if any.
    public var assetListURL: String?
    public var duration: Double
    public var resumptionOffset: Double
    public var restrictions: InterstitialRestrictions
    public var cue: Cue
    /// Plays once per session, even if skipped, cancelled or failed (`CUE="ONCE"`,
    /// `AVPlayerInterstitialEvent.willPlayOnce`). Other mid-rolls play each time playback reaches them.
    public var willPlayOnce: Bool
    /// The break ends this many seconds in, whatever its content's length (`X-PLAYOUT-LIMIT`).
    public var playoutLimit: Double?
    /// `X-SNAP="OUT"`: the break starts on the primary's nearest segment boundary.
    public var alignsStartWithPrimarySegmentBoundary: Bool
    /// `X-SNAP="IN"`: the primary resumes on its nearest segment boundary.
    public var alignsResumptionWithPrimarySegmentBoundary: Bool
    public var timelineOccupancy: TimelineOccupancy
    /// `X-TIMELINE-STYLE="PRIMARY"`: the break is shown as part of the programme, not highlighted as an ad.
    public var supplementsPrimaryContent: Bool
    /// `X-CONTENT-MAY-VARY`: viewers may see different content in this break (true by default).
    public var contentMayVary: Bool
    /// The skip button the page draws during the break, if the event offers one.
    public var skipControl: InterstitialSkipControl?

    public init(
        id: String,
        time: Double,
        url: String,
        duration: Double,
        resumptionOffset: Double = 0,
        restrictions: InterstitialRestrictions = [],
        cue: Cue = .none,
        willPlayOnce: Bool = false,
        assetListURL: String? = nil,
        playoutLimit: Double? = nil,
        alignsStartWithPrimarySegmentBoundary: Bool = false,
        alignsResumptionWithPrimarySegmentBoundary: Bool = false,
        timelineOccupancy: TimelineOccupancy = .singlePoint,
        supplementsPrimaryContent: Bool = false,
        contentMayVary: Bool = true,
        skipControl: InterstitialSkipControl? = nil
    ) {
        self.id = id
        self.time = time
        self.url = url
        self.duration = duration
        self.resumptionOffset = resumptionOffset
        self.restrictions = restrictions
        self.cue = cue
        self.willPlayOnce = willPlayOnce
        self.assetListURL = assetListURL
        self.playoutLimit = playoutLimit
        self.alignsStartWithPrimarySegmentBoundary = alignsStartWithPrimarySegmentBoundary
        self.alignsResumptionWithPrimarySegmentBoundary = alignsResumptionWithPrimarySegmentBoundary
        self.timelineOccupancy = timelineOccupancy
        self.supplementsPrimaryContent = supplementsPrimaryContent
        self.contentMayVary = contentMayVary
        self.skipControl = skipControl
    }

    /// How long the break actually plays: its duration, cut short by the playout limit.
    public var playedDuration: Double {
        guard let playoutLimit, playoutLimit >= 0 else { return duration }
        return duration > 0 ? min(duration, playoutLimit) : playoutLimit
    }

    /// Whether the viewer may not seek or speed up inside it (`X-RESTRICT="SKIP"`).
    public var restrictsSkipping: Bool { restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) }
    /// Whether a seek over it plays it first (`X-RESTRICT="JUMP"`).
    public var restrictsJumping: Bool { restrictions.contains(.constrainsSeekingForwardInPrimaryContent) }
}

/// What a viewer may not do around an interstitial, as in `AVPlayerInterstitialEvent.Restrictions`.
public struct InterstitialRestrictions: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Seeking from before the event to after it plays the event first (`X-RESTRICT="JUMP"`).
    public static let constrainsSeekingForwardInPrimaryContent = InterstitialRestrictions(rawValue: 1 << 0)
    /// The event plays at no more than 1× and cannot be scrubbed through (`X-RESTRICT="SKIP"`).
    public static let requiresPlaybackAtPreferredRateForAdvancement = InterstitialRestrictions(rawValue: 1 << 1)
}

/// A skip button for a break: shown `offset` seconds into it for `duration` seconds (until the
/// break ends when `nil`), labelled with `labels` (language code to text), as the HLS
/// `X-SKIP-CONTROL-OFFSET`, `X-SKIP-CONTROL-DURATION` and `X-SKIP-CONTROL-LABEL-ID` attributes
/// (the labels travel in the multivariant playlist's session data under `labelID`).
public struct InterstitialSkipControl: Sendable, Hashable, Codable {
    public var offset: Double
    public var duration: Double?
    public var labelID: String?
    public var labels: [String: String]

    public init(offset: Double, duration: Double? = nil, labelID: String? = nil, labels: [String: String] = [:]) {
        self.offset = offset
        self.duration = duration
        self.labelID = labelID
        self.labels = labels
    }

    /// Whether the button shows at `clock` seconds into the break.
    public func isShown(at clock: Double) -> Bool {
        guard clock >= offset else { return false }
        guard let duration else { return true }
        return clock < offset + duration
    }
}
