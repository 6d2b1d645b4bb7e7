import Testing

@testable import Playback

/// The interstitial rules of the HLS Interstitials specification and
/// `AVPlayerInterstitialEventController`, each as the session applies them.
@Suite("Playback session: interstitial event controller")
struct InterstitialEventControllerTests {
    func ad(
        _ id: String, at time: Double, offset: Double = 0, restrictions: InterstitialRestrictions = [],
        cue: InterstitialEvent.Cue = .none, once: Bool = false, limit: Double? = nil,
        skip: InterstitialSkipControl? = nil
    ) -> InterstitialEvent {
        InterstitialEvent(
            id: id, time: time, url: "/\(id).json", duration: 5, resumptionOffset: offset,
            restrictions: restrictions, cue: cue, willPlayOnce: once, playoutLimit: limit, skipControl: skip)
    }

    /// Plays from `from` through `to` in quarter-second reports, returning the first commands any report produced.
    func playThrough(_ session: inout PlaybackSession, from: Double, to: Double) -> [RendererCommand] {
        var time = from
        while time <= to {
            let commands = session.handle(.time(time))
            if !commands.isEmpty { return commands }
            time += 0.25
        }
        return []
    }

    @Test("Events set locally replace the stream's; the stream's come back only when none are set")
    func localEventsOverrideTheStreams() {
        var session = makeSession(interstitials: [ad("stream", at: 10)])
        session.interstitialEvents = [ad("local", at: 20)]
        #expect(session.interstitialEvents.map(\.id) == ["local"])
        #expect(session.interstitialTimeRanges.map(\.eventID) == ["local"])
        _ = session.handle(.play)
        #expect(playThrough(&session, from: 9, to: 11).isEmpty, "the stream's break at 10 s no longer plays")
        #expect(playThrough(&session, from: 11, to: 21) == [.playInterstitial(ad("local", at: 20), rate: 1)])
        // A new stream event list does not undo the local override.
        session.setStreamInterstitialEvents([ad("stream-2", at: 40)])
        #expect(session.interstitialEvents.map(\.id) == ["local"])
    }

    @Test("Events at the same time play in order as one break, and their resumption offsets add up")
    func sameTimeEventsFormOneBreak() {
        let first = ad("a", at: 20, offset: 2)
        let second = ad("b", at: 20, offset: 3)
        var session = makeSession(interstitials: [ad("later", at: 40), first, second])
        _ = session.handle(.play)
        #expect(playThrough(&session, from: 19, to: 21) == [.playInterstitial(first, rate: 1)])
        #expect(session.interstitialBreakPosition! == (1, 2))
        #expect(session.handle(.ended) == [.playInterstitial(second, rate: 1)])
        #expect(session.interstitialBreakPosition! == (2, 2))
        // Held at 20 (the first report at or past it), the primary resumes 2 + 3 s later.
        #expect(session.handle(.ended) == [.resumePrimary(at: 25, rate: 1)])
        #expect(session.interstitialBreakPosition == nil)
    }

    @Test("Pre-rolls play before the first primary frame, post-rolls after the end, each break in order")
    func preAndPostRolls() {
        let pre1 = ad("pre-1", at: 0, cue: .joinCue)
        let pre2 = ad("pre-2", at: 0, cue: .joinCue)
        let post = ad("post", at: 0, cue: .leaveCue)
        var session = makeSession(interstitials: [post, pre1, pre2])
        #expect(session.handle(.play).commands == [.playInterstitial(pre1, rate: 1)], "the primary has not started")
        #expect(session.currentTime == 0)
        #expect(session.handle(.ended) == [.playInterstitial(pre2, rate: 1)])
        #expect(session.handle(.ended) == [.resumePrimary(at: 0, rate: 1)])
        _ = session.handle(.time(59.9))
        #expect(session.handle(.ended) == [.playInterstitial(post, rate: 1)])
        #expect(session.status == .playing && session.currentTime == 60)
        #expect(session.handle(.ended) == [.resumePrimary(at: 60, rate: 0)])
        #expect(session.status == .ended)
        // Playing again starts over without the join and leave breaks.
        #expect(session.handle(.play).commands == [.seek(to: 0), .play(rate: 1)])
    }

    @Test("A once event plays once per session even when cancelled; an ordinary mid-roll plays each time it is reached")
    func onceEvents() {
        let once = ad("once", at: 20, once: true)
        let every = ad("every", at: 30)
        var session = makeSession(interstitials: [once, every])
        _ = session.handle(.play)
        #expect(playThrough(&session, from: 19, to: 21) == [.playInterstitial(once, rate: 1)])
        #expect(session.cancelCurrentEvent(withResumptionOffset: 0) == [.resumePrimary(at: 20, rate: 1)])
        #expect(playThrough(&session, from: 29, to: 31) == [.playInterstitial(every, rate: 1)])
        _ = session.handle(.ended)
        _ = session.handle(.seek(to: 10))
        #expect(playThrough(&session, from: 10, to: 25).isEmpty, "the cancelled once event does not come back")
        #expect(playThrough(&session, from: 25, to: 31) == [.playInterstitial(every, rate: 1)], "the ordinary one does")
    }

    @Test("A seek across several jump-restricted breaks plays the last one before the target, then lands on the target")
    func jumpRestriction() {
        let first = ad("first", at: 10, restrictions: [.constrainsSeekingForwardInPrimaryContent])
        let last = ad("last", at: 30, restrictions: [.constrainsSeekingForwardInPrimaryContent])
        let free = ad("free", at: 40)
        var session = makeSession(interstitials: [first, last, free])
        _ = session.handle(.play)
        _ = session.handle(.time(2))
        #expect(session.handle(.seek(to: 50)).commands == [.playInterstitial(last, rate: 1)])
        #expect(session.currentTime == 30)
        #expect(session.handle(.ended) == [.resumePrimary(at: 50, rate: 1)])
        #expect(session.currentTime == 50)
        // A seek before the break does not play it.
        _ = session.handle(.seek(to: 2))
        #expect(session.handle(.seek(to: 9)).commands == [.seek(to: 9)])
    }

    @Test("A skip-restricted break refuses seeks and rates above 1× but allows slower ones")
    func skipRestriction() {
        let locked = ad("locked", at: 20, restrictions: [.requiresPlaybackAtPreferredRateForAdvancement])
        var session = makeSession(interstitials: [locked])
        _ = session.handle(.selectSpeed(rate: 1.5))
        _ = session.handle(.play)
        #expect(playThrough(&session, from: 19, to: 21) == [.playInterstitial(locked, rate: 1)], "at 1×, not the chosen 1.5×")
        #expect(!session.permissions.canSeek && !session.permissions.canChangeRate)
        #expect(session.handle(.seek(to: 3)).refusal == .seekingRestrictedDuringInterstitial)
        #expect(session.handle(.skip(by: 2)).refusal == .seekingRestrictedDuringInterstitial)
        #expect(session.handle(.selectSpeed(rate: 2)).refusal == .rateRestrictedDuringInterstitial)
        #expect(session.handle(.selectSpeed(rate: 0.5)).commands == [.play(rate: 0.5)])
        #expect(session.handle(.skipInterstitial).refusal == .interstitialNotSkippable)
    }

    @Test("A playout limit ends the event early")
    func playoutLimit() {
        let limited = ad("limited", at: 20, limit: 2)
        var session = makeSession(interstitials: [limited])
        _ = session.handle(.play)
        _ = playThrough(&session, from: 19, to: 21)
        #expect(session.handle(.time(1.5)).isEmpty)
        #expect(session.handle(.time(2.01)) == [.resumePrimary(at: 20, rate: 1)])
        #expect(session.activeInterstitial == nil)
        #expect(limited.playedDuration == 2)
    }

    @Test("A failed event is skipped and reported; the rest of its break and the primary go on")
    func failedAsset() {
        let broken = ad("broken", at: 20)
        let fine = ad("fine", at: 20)
        var session = makeSession(interstitials: [broken, fine])
        _ = session.handle(.play)
        _ = playThrough(&session, from: 19, to: 21)
        #expect(session.handle(.interstitialFailed(message: "HTTP 404")) == [.playInterstitial(fine, rate: 1)])
        #expect(session.interstitialFailure == "HTTP 404")
        #expect(session.handle(.interstitialFailed(message: "decode error")) == [.resumePrimary(at: 20, rate: 1)])
        #expect(session.status == .playing && session.activeInterstitial == nil)
    }

    @Test("The skip control allows a skip only in its window, even in a restricted break, and the skip moves on in the break")
    func skipControl() {
        let skippable = ad(
            "skippable", at: 20, offset: 1, restrictions: [.requiresPlaybackAtPreferredRateForAdvancement],
            skip: InterstitialSkipControl(offset: 3, duration: 2, labelID: "SKIP", labels: ["en": "Skip ad"]))
        let next = ad("next", at: 20)
        var session = makeSession(interstitials: [skippable, next])
        _ = session.handle(.play)
        _ = playThrough(&session, from: 19, to: 21)
        _ = session.handle(.time(2.9))
        #expect(!session.permissions.canSkipInterstitial)
        #expect(session.handle(.skipInterstitial).refusal == .interstitialNotSkippable)
        _ = session.handle(.time(3))
        #expect(session.permissions.canSkipInterstitial)
        _ = session.handle(.time(5))
        #expect(!session.permissions.canSkipInterstitial, "the window closed after its duration")
        _ = session.handle(.time(4.5))
        #expect(session.handle(.skipInterstitial).commands == [.playInterstitial(next, rate: 1)])
        // The skipped event still counts towards where the primary resumes.
        #expect(session.handle(.ended) == [.resumePrimary(at: 21, rate: 1)])
    }

    @Test("skipCurrentEvent and cancelCurrentEvent end a break whatever its restrictions; nothing happens with no break")
    func applicationCalls() {
        let locked = ad("locked", at: 20, offset: 5, restrictions: [.requiresPlaybackAtPreferredRateForAdvancement])
        var session = makeSession(interstitials: [locked, ad("second", at: 20, offset: 5)])
        #expect(session.skipCurrentEvent().isEmpty && session.cancelCurrentEvent(withResumptionOffset: 3).isEmpty)
        _ = session.handle(.play)
        _ = playThrough(&session, from: 19, to: 21)
        #expect(session.currentInterstitialEvent?.id == "locked")
        #expect(session.skipCurrentEvent() == [.playInterstitial(ad("second", at: 20, offset: 5), rate: 1)])
        #expect(session.cancelCurrentEvent(withResumptionOffset: 3) == [.resumePrimary(at: 23, rate: 1)])
        #expect(session.currentInterstitialEvent == nil)
    }

    @Test("Time ranges are derived: a point for point occupancy, the event's span for range occupancy, unhighlighted for primary style")
    func timeRanges() {
        var range = ad("range", at: 20, offset: 5)
        range.timelineOccupancy = .range
        range.supplementsPrimaryContent = true
        let session = makeSession(interstitials: [range, ad("point", at: 40)])
        #expect(
            session.interstitialTimeRanges == [
                InterstitialTimeRange(eventID: "range", start: 20, duration: 5, occupancy: .range, isHighlighted: false),
                InterstitialTimeRange(eventID: "point", start: 40, duration: 0),
            ])
    }
}
