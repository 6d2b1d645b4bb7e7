/// What a session announces about its breaks, as `AVPlayerInterstitialEventMonitor` does:
/// an event is about to be presented, or it finished and why.
///
/// The session queues these as it applies reports and intents; whoever hosts the session takes
/// them (`PlaybackSession.takeInterstitialNotifications()`) and tells the page and the
/// server's webhooks. `primaryTime` is where the primary stands (stopped for the break, or
/// about to resume).
public struct InterstitialNotification: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The event is about to play (`willPresent`).
        case willPresent = "will-present"
        /// The event is over (`didFinish`); `reason` says how.
        case didFinish = "did-finish"
    }

    /// Why an event stopped playing.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// It played to its end.
        case completed
        /// Its playout limit (`X-PLAYOUT-LIMIT`) ended it.
        case playoutLimit = "playout-limit"
        /// The viewer's skip button, or the application's `skipCurrentEvent()`.
        case skipped
        /// `cancelCurrentEvent(withResumptionOffset:)` ended the whole break.
        case cancelled
        /// Its content could not load or play; the primary went on without it.
        case failed
        /// The viewer sought out of it into the primary.
        case seekedAway = "seeked-away"
    }

    public var kind: Kind
    public var event: InterstitialEvent
    /// How a `didFinish` ended; nil for `willPresent`.
    public var reason: Reason?
    /// What failed, for `failed`.
    public var message: String?
    /// The primary's time when this happened.
    public var primaryTime: Double

    public init(kind: Kind, event: InterstitialEvent, reason: Reason? = nil, message: String? = nil, primaryTime: Double) {
        self.kind = kind
        self.event = event
        self.reason = reason
        self.message = message
        self.primaryTime = primaryTime
    }
}
