/// Where an interstitial sits on the primary timeline, for drawing it on a timeline.
///
/// Like `AVPlayerInterstitialEventMonitor`'s time ranges: an inserted event occupies a point
/// (duration 0) of primary time; a replacing event covers the primary time it skips.
public struct InterstitialTimeRange: Sendable, Hashable, Codable {
    public var eventID: String
    public var start: Double
    public var duration: Double

    public init(eventID: String, start: Double, duration: Double) {
        self.eventID = eventID
        self.start = start
        self.duration = duration
    }
}

extension InterstitialSchedule {
    /// The ranges of primary time each event marks, in timeline order.
    public func timeRanges(primaryDuration: Double?) -> [InterstitialTimeRange] {
        events.map { event in
            let start: Double
            switch event.cue {
            case .joinCue: start = 0
            case .leaveCue: start = primaryDuration ?? event.time
            case .none: start = event.time
            }
            return InterstitialTimeRange(eventID: event.id, start: start, duration: event.resumptionOffset)
        }
        .sorted { $0.start < $1.start }
    }
}
