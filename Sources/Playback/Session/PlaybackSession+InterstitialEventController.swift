/// The session's interstitial event controller, modelled on `AVPlayerInterstitialEventController`.
///
/// `interstitialEvents` is settable (local events replace the stream's), `currentInterstitialEvent`
/// and `interstitialTimeRanges` are read-only and derived, and `cancelCurrentEvent(withResumptionOffset:)`
/// and `skipCurrentEvent()` end a break early. As everywhere in the session, nothing is
/// performed here: each mutation returns the renderer commands that carry it out.
extension PlaybackSession {
    /// The events in effect. Setting them replaces the stream's events (from the HLS date ranges
    /// or the library) for the rest of the session; a break already playing goes on.
    public var interstitialEvents: [InterstitialEvent] {
        get { schedule.events }
        set { schedule.setLocalEvents(newValue) }
    }

    /// Replaces the events the stream carries (used unless local events were set).
    public mutating func setStreamInterstitialEvents(_ events: [InterstitialEvent]) {
        schedule.setStreamEvents(events)
    }

    /// The event playing now, if any (`AVPlayerInterstitialEventController.currentEvent`).
    public var currentInterstitialEvent: InterstitialEvent? { activeInterstitial }

    /// Ends the whole break now and resumes the primary `offset` seconds after where it
    /// stopped for the break, instead of after the events' own resumption offsets. After a
    /// post-roll the item ends. Does nothing when no break plays.
    public mutating func cancelCurrentEvent(withResumptionOffset offset: Double) -> [RendererCommand] {
        guard status != .failed, let playout else { return [] }
        let extra = offset.isFinite ? max(offset, 0) : 0
        return endBreak(resumingAt: playout.stoppedAt + extra)
    }

    /// Ends the event playing now: the break's next event plays, or the primary resumes as if
    /// the event had played to its end. This is the application's call and ignores the
    /// event's restrictions; a viewer's skip button goes through the `skipInterstitial` intent,
    /// which the restrictions and the skip control govern.
    public mutating func skipCurrentEvent() -> [RendererCommand] {
        guard status != .failed, activeInterstitial != nil else { return [] }
        return advanceBreak()
    }

    /// Where the playing event sits in its break: "Ad 1 of 2".
    public var interstitialBreakPosition: (position: Int, count: Int)? {
        playout.map { ($0.position, $0.count) }
    }
}
