/// The interstitial events of one primary item, where they come from, and which `once` events
/// have had their turn.
///
/// Events come from the stream (its HLS date ranges, or the library's authored breaks) or are
/// set locally, as on `AVPlayerInterstitialEventController`: once local events are set they
/// replace the stream's. Answers the questions a session asks while time moves: which break
/// (the events at one time, played in order) playback reaches between two times, which break
/// a forward seek must play first, what plays before the start and after the end.
public struct InterstitialSchedule: Sendable, Hashable, Codable {
    /// The events the stream carries.
    public private(set) var streamEvents: [InterstitialEvent]
    /// Events set locally; when set they replace `streamEvents`.
    public private(set) var localEvents: [InterstitialEvent]?
    /// Events that have had their turn: pre- and post-rolls, and `once` events (played,
    /// skipped, cancelled or failed).
    public private(set) var playedEventIDs: Set<String> = []

    public init(events: [InterstitialEvent] = []) {
        streamEvents = Self.ordered(events)
    }

    /// The events in effect, in timeline order; events at one time keep the order they were given in.
    public var events: [InterstitialEvent] { localEvents ?? streamEvents }

    public mutating func setStreamEvents(_ events: [InterstitialEvent]) { streamEvents = Self.ordered(events) }

    /// Sets (or with `nil`, clears) the local events that override the stream's.
    public mutating func setLocalEvents(_ events: [InterstitialEvent]?) { localEvents = events.map(Self.ordered) }

    static func ordered(_ events: [InterstitialEvent]) -> [InterstitialEvent] {
        // A stable sort: same-time events play in the order they were given.
        events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    public func hasPlayed(_ event: InterstitialEvent) -> Bool { playedEventIDs.contains(event.id) }

    /// Records that `event` had its turn (it counts for pre-rolls, post-rolls and `once` events).
    public mutating func markPlayed(_ event: InterstitialEvent) { playedEventIDs.insert(event.id) }

    /// Whether `event` may still play: pre-rolls, post-rolls and `once` events play once per
    /// session; other mid-rolls each time playback reaches them.
    public func isEligible(_ event: InterstitialEvent) -> Bool {
        guard hasPlayed(event) else { return true }
        return event.cue == .none && event.time > 0 && !event.willPlayOnce
    }

    private func isPreRoll(_ event: InterstitialEvent) -> Bool {
        event.cue == .joinCue || (event.cue == .none && event.time <= 0)
    }

    private func isMidRoll(_ event: InterstitialEvent) -> Bool { event.cue == .none && event.time > 0 }

    /// The unplayed pre-rolls, in order: join-cue events and timed events at 0.
    public func preRollBreak() -> [InterstitialEvent] { events.filter { isPreRoll($0) && isEligible($0) } }

    /// The unplayed post-rolls, in order.
    public func postRollBreak() -> [InterstitialEvent] { events.filter { $0.cue == .leaveCue && isEligible($0) } }

    /// The eligible mid-rolls at exactly `time`, in order: one break.
    public func midRollBreak(at time: Double) -> [InterstitialEvent] {
        events.filter { isMidRoll($0) && $0.time == time && isEligible($0) }
    }

    /// The first unplayed pre-roll, if any.
    public func preRoll() -> InterstitialEvent? { preRollBreak().first }

    /// The first unplayed post-roll, if any.
    public func postRoll() -> InterstitialEvent? { postRollBreak().first }

    /// The first eligible mid-roll that normal playback from `from` to `to` passes.
    public func event(reachedBetween from: Double, and to: Double) -> InterstitialEvent? {
        guard to >= from else { return nil }
        return events.first { isMidRoll($0) && isEligible($0) && $0.time > from && $0.time <= to }
    }

    /// The first eligible mid-roll after `time`.
    public func nextEvent(after time: Double) -> InterstitialEvent? {
        events.first { isMidRoll($0) && isEligible($0) && $0.time > time }
    }

    /// The event a forward seek from `from` to `to` must play first: of the eligible events in
    /// between whose restrictions forbid jumping over them, the last one before the target.
    public func event(constrainingSeekFrom from: Double, to: Double) -> InterstitialEvent? {
        guard to > from else { return nil }
        return events.last { event in
            isMidRoll(event) && isEligible(event) && event.time > from && event.time <= to && event.restrictsJumping
        }
    }
}
