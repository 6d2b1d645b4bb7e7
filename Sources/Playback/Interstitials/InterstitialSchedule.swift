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
    /// The primary's segment boundaries, in seconds and ascending (every segment's start and
    /// the end of the last), which `X-SNAP` aligns breaks with. Empty leaves every event where
    /// it was authored.
    public private(set) var segmentBoundaries: [Double] = []

    public init(events: [InterstitialEvent] = []) {
        streamEvents = Self.ordered(events)
    }

    /// The events in effect, as authored, in timeline order; events at one time keep the order they were given in.
    public var events: [InterstitialEvent] { localEvents ?? streamEvents }

    /// The events in effect where they play: a mid-roll with `X-SNAP="OUT"` moved to the
    /// primary's segment boundary nearest its time, in timeline order. Every question below
    /// is answered from these, so the page holds the primary, marks the timeline and starts
    /// the break where an HLS client applying the attribute would.
    public var scheduledEvents: [InterstitialEvent] {
        guard !segmentBoundaries.isEmpty else { return events }
        return Self.ordered(
            events.map { event in
                guard event.alignsStartWithPrimarySegmentBoundary, isMidRoll(event) else { return event }
                var moved = event
                moved.time = nearestSegmentBoundary(to: event.time)
                return moved
            })
    }

    /// Sets the primary's segment boundaries (segment start times and the end; any order).
    public mutating func setSegmentBoundaries(_ times: [Double]) {
        segmentBoundaries = Array(Set(times.filter { $0.isFinite && $0 >= 0 })).sorted()
    }

    /// The segment boundary nearest `time` (the earlier one on a tie), or `time` when none are known.
    public func nearestSegmentBoundary(to time: Double) -> Double {
        guard !segmentBoundaries.isEmpty, time.isFinite else { return time }
        // The first boundary at or after `time` (binary search), then the nearer of it and the one before.
        var low = 0
        var high = segmentBoundaries.count
        while low < high {
            let middle = (low + high) / 2
            if segmentBoundaries[middle] < time { low = middle + 1 } else { high = middle }
        }
        let after = low < segmentBoundaries.count ? segmentBoundaries[low] : nil
        let before = low > 0 ? segmentBoundaries[low - 1] : nil
        switch (before, after) {
        case (let before?, let after?): return time - before <= after - time ? before : after
        case (let before?, nil): return before
        case (nil, let after?): return after
        case (nil, nil): return time
        }
    }

    /// Where the primary resumes after `events` (one break) that stopped it at `stoppedAt`:
    /// their resumption offsets added up, moved to the nearest segment boundary when an
    /// event of the break says `X-SNAP="IN"`.
    public func resumption(after events: [InterstitialEvent], stoppedAt: Double) -> Double {
        let natural = stoppedAt + events.reduce(0) { $0 + max($1.resumptionOffset, 0) }
        return events.contains(where: \.alignsResumptionWithPrimarySegmentBoundary) ? nearestSegmentBoundary(to: natural) : natural
    }

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
    public func preRollBreak() -> [InterstitialEvent] { scheduledEvents.filter { isPreRoll($0) && isEligible($0) } }

    /// The unplayed post-rolls, in order.
    public func postRollBreak() -> [InterstitialEvent] { scheduledEvents.filter { $0.cue == .leaveCue && isEligible($0) } }

    /// The eligible mid-rolls at exactly `time`, in order: one break.
    public func midRollBreak(at time: Double) -> [InterstitialEvent] {
        scheduledEvents.filter { isMidRoll($0) && $0.time == time && isEligible($0) }
    }

    /// The first unplayed pre-roll, if any.
    public func preRoll() -> InterstitialEvent? { preRollBreak().first }

    /// The first unplayed post-roll, if any.
    public func postRoll() -> InterstitialEvent? { postRollBreak().first }

    /// The first eligible mid-roll that normal playback from `from` to `to` passes.
    public func event(reachedBetween from: Double, and to: Double) -> InterstitialEvent? {
        guard to >= from else { return nil }
        return scheduledEvents.first { isMidRoll($0) && isEligible($0) && $0.time > from && $0.time <= to }
    }

    /// The first eligible mid-roll after `time`.
    public func nextEvent(after time: Double) -> InterstitialEvent? {
        scheduledEvents.first { isMidRoll($0) && isEligible($0) && $0.time > time }
    }

    /// The event a forward seek from `from` to `to` must play first: of the eligible events in
    /// between whose restrictions forbid jumping over them, the last one before the target.
    public func event(constrainingSeekFrom from: Double, to: Double) -> InterstitialEvent? {
        guard to > from else { return nil }
        return scheduledEvents.last { event in
            isMidRoll(event) && isEligible(event) && event.time > from && event.time <= to && event.restrictsJumping
        }
    }
}
