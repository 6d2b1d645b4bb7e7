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
        announceFinish(playout.event, .cancelled)
        var resumption = playout.stoppedAt + extra
        // `X-SNAP="IN"` moves this resumption point too.
        if playout.event.alignsResumptionWithPrimarySegmentBoundary { resumption = schedule.nearestSegmentBoundary(to: resumption) }
        return endBreak(resumingAt: resumption)
    }

    /// Ends the event playing now: the break's next event plays, or the primary resumes as if
    /// the event had played to its end. This is the application's call and ignores the
    /// event's restrictions; a viewer's skip button goes through the `skipInterstitial` intent,
    /// which the restrictions and the skip control govern.
    public mutating func skipCurrentEvent() -> [RendererCommand] {
        guard status != .failed, activeInterstitial != nil else { return [] }
        return advanceBreak(.skipped)
    }

    /// Where the playing event sits in its break: "Ad 1 of 2".
    public var interstitialBreakPosition: (position: Int, count: Int)? {
        playout.map { ($0.position, $0.count) }
    }

    /// Sets the primary's segment boundaries (each segment's start and the end of the last), which
    /// `X-SNAP` aligns breaks with: a break with `OUT` starts on the one nearest its time, a
    /// break with `IN` resumes on the one nearest its resumption point.
    public mutating func setPrimarySegmentBoundaries(_ times: [Double]) {
        schedule.setSegmentBoundaries(times)
    }

    /// The first event of the break playback reaches next (a pre-roll before the primary starts,
    /// the next mid-roll, or a post-roll), for a renderer to load ahead of its boundary so the
    /// hand-over shows no gap. Nil while a break plays or when none is ahead.
    public var upcomingInterstitial: InterstitialEvent? {
        guard activeInterstitial == nil, status != .ended, status != .failed else { return nil }
        if currentTime <= 0, let pre = schedule.preRoll() { return pre }
        if let next = schedule.nextEvent(after: currentTime) { return next }
        return schedule.postRoll()
    }

    /// Takes the will-present and did-finish notifications queued since the last call, oldest first.
    public mutating func takeInterstitialNotifications() -> [InterstitialNotification] {
        defer { pendingInterstitialNotifications.removeAll() }
        return pendingInterstitialNotifications
    }

    mutating func announce(
        _ kind: InterstitialNotification.Kind, _ event: InterstitialEvent, reason: InterstitialNotification.Reason? = nil,
        message: String? = nil
    ) {
        pendingInterstitialNotifications.append(
            InterstitialNotification(kind: kind, event: event, reason: reason, message: message, primaryTime: currentTime))
        if pendingInterstitialNotifications.count > Self.notificationLimit {
            pendingInterstitialNotifications.removeFirst(pendingInterstitialNotifications.count - Self.notificationLimit)
        }
    }

    mutating func announceFinish(_ event: InterstitialEvent, _ reason: InterstitialNotification.Reason, message: String? = nil) {
        announce(.didFinish, event, reason: reason, message: message)
    }
}
