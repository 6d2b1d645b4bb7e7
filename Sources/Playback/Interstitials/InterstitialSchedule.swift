/// The interstitial events of one primary item and which of them have played.
///
/// Answers the questions a session asks while time moves: which event does playback reach
/// between two times, which event does a forward seek jump over, what plays before the start
/// and after the end. Each event plays at most once per session.
public struct InterstitialSchedule: Sendable, Hashable, Codable {
    public private(set) var events: [InterstitialEvent]
    public private(set) var playedEventIDs: Set<String> = []

    public init(events: [InterstitialEvent] = []) {
        self.events = events.sorted { $0.time < $1.time }
    }

    public func hasPlayed(_ event: InterstitialEvent) -> Bool { playedEventIDs.contains(event.id) }

    public mutating func markPlayed(_ event: InterstitialEvent) { playedEventIDs.insert(event.id) }

    /// The unplayed pre-roll, if any: a join-cue event or a timed event at 0.
    public func preRoll() -> InterstitialEvent? {
        events.first { !hasPlayed($0) && ($0.cue == .joinCue || ($0.cue == .none && $0.time <= 0)) }
    }

    /// The unplayed post-roll, if any.
    public func postRoll() -> InterstitialEvent? {
        events.first { !hasPlayed($0) && $0.cue == .leaveCue }
    }

    /// The first unplayed timed event that normal playback from `from` to `to` passes.
    public func event(reachedBetween from: Double, and to: Double) -> InterstitialEvent? {
        guard to >= from else { return nil }
        return events.first { event in
            event.cue == .none && event.time > 0 && !hasPlayed(event) && event.time > from && event.time <= to
        }
    }

    /// The first unplayed timed event after `time` (a pre-roll at 0 is not one).
    public func nextEvent(after time: Double) -> InterstitialEvent? {
        events.first { $0.cue == .none && $0.time > 0 && !hasPlayed($0) && $0.time > time }
    }

    /// The event a forward seek from `from` to `to` must play first: the last unplayed event
    /// in between whose restrictions forbid jumping over it.
    public func event(constrainingSeekFrom from: Double, to: Double) -> InterstitialEvent? {
        guard to > from else { return nil }
        return events.last { event in
            event.cue == .none && !hasPlayed(event) && event.time > from && event.time <= to
                && event.restrictions.contains(.constrainsSeekingForwardInPrimaryContent)
        }
    }
}
