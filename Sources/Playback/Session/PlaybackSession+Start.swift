/// How a session begins, given when it is created: where the playhead starts (a search hit's
/// moment, or where the viewer stopped last time), the rate a "Play on…" hand-over carries,
/// and whether it plays by itself. The session carries it out when its renderer first reports
/// ready, so a page sends no intents to set itself up after the session exists.
public struct PlaybackStart: Sendable, Hashable {
    /// Seconds into the item; nil or 0 starts at the beginning.
    public var time: Double?
    /// A rate the player offers; another is ignored (and said so).
    public var rate: Double?
    /// Whether playback starts by itself once the item is ready.
    public var autoplay: Bool

    public init(time: Double? = nil, rate: Double? = nil, autoplay: Bool = true) {
        self.time = time
        self.rate = rate
        self.autoplay = autoplay
    }
}

extension PlaybackSession {
    /// Takes `start` before the renderer is ready: the rate is selected now when the session
    /// offers it, playback is wanted when `autoplay`, and the playhead moves to `time` (as a
    /// seek would: a jump-restricted break on the way plays first) on the first `ready`.
    /// Returns what was left out, in plain words (a rate not offered, a time that is not one).
    public mutating func begin(with start: PlaybackStart) -> [String] {
        var leftOut: [String] = []
        if let rate = start.rate, rate != preferredRate {
            if case .failure = handle(.selectSpeed(rate: rate)) {
                leftOut.append("The rate \(rate) is not one of this player's speeds; playing at \(preferredRate)")
            }
        }
        if let time = start.time {
            if time.isFinite, time >= 0 { startTime = time > 0 ? time : nil } else { leftOut.append("The start time \(time) is not a time") }
        }
        if start.autoplay { _ = handle(.play) }
        return leftOut
    }
}
