/// Where an interstitial sits on the primary timeline, for drawing it on a timeline.
///
/// Like `AVPlayerInterstitialEventController.interstitialTimeRanges`, derived from the events
/// and never set: a point-occupancy event marks a point (duration 0) of primary time; a
/// range-occupancy event shades the primary time it covers. `occupancy` and `style` tell a
/// page how to draw it.
public struct InterstitialTimeRange: Sendable, Hashable, Codable {
    public var eventID: String
    public var start: Double
    public var duration: Double
    public var occupancy: InterstitialEvent.TimelineOccupancy
    /// Whether the mark is highlighted as a break (false for `X-TIMELINE-STYLE="PRIMARY"`).
    public var isHighlighted: Bool
    public var cue: InterstitialEvent.Cue

    public init(
        eventID: String, start: Double, duration: Double, occupancy: InterstitialEvent.TimelineOccupancy = .singlePoint,
        isHighlighted: Bool = true, cue: InterstitialEvent.Cue = .none
    ) {
        self.eventID = eventID
        self.start = start
        self.duration = duration
        self.occupancy = occupancy
        self.isHighlighted = isHighlighted
        self.cue = cue
    }
}

extension InterstitialSchedule {
    /// The ranges of primary time each event marks, in timeline order.
    public func timeRanges(primaryDuration: Double?) -> [InterstitialTimeRange] {
        scheduledEvents.map { event in
            let start: Double
            switch event.cue {
            case .joinCue: start = 0
            case .leaveCue: start = primaryDuration ?? event.time
            case .none: start = max(event.time, 0)
            }
            var length = event.timelineOccupancy == .range && event.cue == .none ? max(event.duration, 0) : 0
            if let primaryDuration { length = max(min(length, primaryDuration - start), 0) }
            return InterstitialTimeRange(
                eventID: event.id, start: start, duration: length, occupancy: event.timelineOccupancy,
                isHighlighted: !event.supplementsPrimaryContent, cue: event.cue)
        }
        .sorted { $0.start < $1.start }
    }
}
