import Foundation

/// An interstitial event a person authored for an asset (an ad break): when it plays, what
/// it plays, and the rules around it — everything an HLS Interstitials date range can say.
///
/// This is the library's record; the server turns it into the `EXT-X-DATERANGE` it serves and
/// into the session's `InterstitialEvent`. Its JSON is the authoring API's body.
public struct AuthoredInterstitial: Codable, Sendable, Hashable, Identifiable {
    /// When the event plays relative to the primary item.
    public enum Cue: String, Codable, Sendable, Hashable {
        /// At `time`.
        case none
        /// Before the primary starts (`CUE="PRE"`).
        case pre
        /// After the primary ends (`CUE="POST"`).
        case post
    }

    /// What plays: exactly one of a library asset, an HLS URL, or an asset-list URL.
    public struct Content: Codable, Sendable, Hashable {
        /// A library asset (played from its bundle).
        public var assetID: String?
        /// An HLS multivariant playlist URL (`X-ASSET-URI`).
        public var uri: String?
        /// An asset-list URL (`X-ASSET-LIST`): a JSON list of assets played in turn.
        public var assetList: String?
        /// Content naming one of the three (`InterstitialValidation` refuses none or several).
        public init(assetID: String? = nil, uri: String? = nil, assetList: String? = nil) {
            self.assetID = assetID
            self.uri = uri
            self.assetList = assetList
        }
    }

    /// `X-RESTRICT`: SKIP (no seeking inside, no rate above 1×) and JUMP (a seek over it plays it first).
    public struct Restrictions: Codable, Sendable, Hashable {
        /// `SKIP`: no seeking inside the break and no rate above 1×.
        public var skip: Bool
        /// `JUMP`: a seek past the break plays it first.
        public var jump: Bool
        /// Restrictions with the given flags (none by default).
        public init(skip: Bool = false, jump: Bool = false) {
            self.skip = skip
            self.jump = jump
        }
        enum CodingKeys: String, CodingKey { case skip, jump }
        /// Either may be left out (false).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            skip = try c.decodeIfPresent(Bool.self, forKey: .skip) ?? false
            jump = try c.decodeIfPresent(Bool.self, forKey: .jump) ?? false
        }
    }

    /// `X-SNAP`: align the break's start (OUT) or the primary's return (IN) to segment boundaries.
    public struct Snap: Codable, Sendable, Hashable {
        /// `OUT`: the break starts at the segment boundary nearest its time.
        public var out: Bool
        /// `IN`: the primary resumes at a segment boundary.
        public var `in`: Bool
        /// Snapping with the given flags (none by default).
        public init(out: Bool = false, in: Bool = false) {
            self.out = out
            self.in = `in`
        }
        enum CodingKeys: String, CodingKey { case out, `in` }
        /// Either may be left out (false).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            out = try c.decodeIfPresent(Bool.self, forKey: .out) ?? false
            self.in = try c.decodeIfPresent(Bool.self, forKey: .in) ?? false
        }
    }

    /// The skip button: shown `offset` seconds in, for `duration` seconds (to the end when absent),
    /// labelled by language (`en`, `ja`, …).
    public struct SkipControl: Codable, Sendable, Hashable {
        /// Seconds into the break before the button shows.
        public var offset: Double
        /// Seconds the button stays; nil until the break ends.
        public var duration: Double?
        /// The button's label per language code (`en`, `ja`).
        public var labels: [String: String]?
        /// A skip button `offset` seconds in.
        public init(offset: Double, duration: Double? = nil, labels: [String: String]? = nil) {
            self.offset = offset
            self.duration = duration
            self.labels = labels
        }
    }

    /// `X-TIMELINE-OCCUPIES`: drawn on the primary's timeline as a point or as a range.
    public enum TimelineOccupancy: String, Codable, Sendable, Hashable { case point, range }
    /// `X-TIMELINE-STYLE`: set apart from the primary content (highlight) or shown as part of it.
    public enum TimelineStyle: String, Codable, Sendable, Hashable { case highlight, primary }

    /// Assigned by the library when the event is added.
    public var id: String
    /// The primary asset the event belongs to; set from the route.
    public var assetID: String
    /// Seconds into the primary; ignored (0) for pre- and post-rolls.
    public var time: Double
    /// At `time`, before the primary or after it.
    public var cue: Cue
    /// `CUE="ONCE"`: plays once per session, even if skipped or cancelled.
    public var once: Bool
    /// What plays.
    public var content: Content
    /// Seconds; for a library asset, its duration when absent.
    public var duration: Double?
    /// Seconds the primary moves on after the break: 0 inserts it, its duration replaces that
    /// much primary; when absent, its duration (the HLS default).
    public var resumptionOffset: Double?
    /// `X-PLAYOUT-LIMIT`: the break ends after this many seconds.
    public var playoutLimit: Double?
    /// What a viewer may not do during the break.
    public var restrictions: Restrictions
    /// Which ends of the break snap to segment boundaries.
    public var snap: Snap
    /// How the break is drawn on the timeline (a point by default).
    public var timelineOccupies: TimelineOccupancy
    /// Whether the break is set apart from the primary (highlighted by default).
    public var timelineStyle: TimelineStyle
    /// The skip button, when the break offers one.
    public var skipControl: SkipControl?
    /// `X-CONTENT-MAY-VARY`.
    public var contentMayVary: Bool

    /// An event with the given fields; the library assigns `id` and `assetID` when it is added.
    public init(
        id: String = "", assetID: String = "", time: Double = 0, cue: Cue = .none, once: Bool = false,
        content: Content, duration: Double? = nil, resumptionOffset: Double? = 0, playoutLimit: Double? = nil,
        restrictions: Restrictions = Restrictions(), snap: Snap = Snap(), timelineOccupies: TimelineOccupancy = .point,
        timelineStyle: TimelineStyle = .highlight, skipControl: SkipControl? = nil, contentMayVary: Bool = true
    ) {
        self.id = id
        self.assetID = assetID
        self.time = time
        self.cue = cue
        self.once = once
        self.content = content
        self.duration = duration
        self.resumptionOffset = resumptionOffset
        self.playoutLimit = playoutLimit
        self.restrictions = restrictions
        self.snap = snap
        self.timelineOccupies = timelineOccupies
        self.timelineStyle = timelineStyle
        self.skipControl = skipControl
        self.contentMayVary = contentMayVary
    }

    enum CodingKeys: String, CodingKey {
        case id, assetID, time, cue, once, content, duration, resumptionOffset, playoutLimit, restrictions, snap,
            timelineOccupies, timelineStyle, skipControl, contentMayVary
    }

    /// Reads a body where everything but `content` may be left out (the defaults above).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(String.self, forKey: .id) ?? ""
        assetID = try c.decodeIfPresent(String.self, forKey: .assetID) ?? ""
        time = try c.decodeIfPresent(Double.self, forKey: .time) ?? 0
        cue = try c.decodeIfPresent(Cue.self, forKey: .cue) ?? .none
        once = try c.decodeIfPresent(Bool.self, forKey: .once) ?? false
        content = try c.decode(Content.self, forKey: .content)
        duration = try c.decodeIfPresent(Double.self, forKey: .duration)
        resumptionOffset = c.contains(.resumptionOffset) ? try c.decodeIfPresent(Double.self, forKey: .resumptionOffset) : 0
        playoutLimit = try c.decodeIfPresent(Double.self, forKey: .playoutLimit)
        restrictions = try c.decodeIfPresent(Restrictions.self, forKey: .restrictions) ?? Restrictions()
        snap = try c.decodeIfPresent(Snap.self, forKey: .snap) ?? Snap()
        timelineOccupies = try c.decodeIfPresent(TimelineOccupancy.self, forKey: .timelineOccupies) ?? .point
        timelineStyle = try c.decodeIfPresent(TimelineStyle.self, forKey: .timelineStyle) ?? .highlight
        skipControl = try c.decodeIfPresent(SkipControl.self, forKey: .skipControl)
        contentMayVary = try c.decodeIfPresent(Bool.self, forKey: .contentMayVary) ?? true
    }

    /// The primary time the event is drawn at: 0 for a pre-roll, `primaryDuration` for a post-roll.
    public func timelineStart(primaryDuration: Double) -> Double {
        switch cue {
        case .none: time
        case .pre: 0
        case .post: primaryDuration
        }
    }

    /// Seconds the break plays (its duration, cut short by the playout limit).
    public var playedDuration: Double? {
        switch (duration, playoutLimit) {
        case (let d?, let l?): min(d, l)
        case (let d?, nil): d
        case (nil, let l?): l
        case (nil, nil): nil
        }
    }

    /// Seconds of primary time the break takes: the resumption offset, or for a range on the
    /// timeline at least its duration.
    public var primarySpan: Double {
        let offset = resumptionOffset ?? duration ?? 0
        return timelineOccupies == .range ? max(offset, duration ?? 0) : offset
    }
}
