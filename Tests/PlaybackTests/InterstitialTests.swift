import Testing

@testable import Playback

@Suite("Playback session: interstitials")
struct InterstitialTests {
    let adLocked = InterstitialEvent(
        id: "ad", time: 20, url: "/ad.json", duration: 5,
        restrictions: [.constrainsSeekingForwardInPrimaryContent, .requiresPlaybackAtPreferredRateForAdvancement])

    @Test func reachingAnEventPlaysItThenResumesWhereItLeft() {
        var session = makeSession(interstitials: [adLocked])
        _ = session.handle(.selectSpeed(rate: 2))
        _ = session.handle(.play)
        #expect(session.handle(.time(19)).isEmpty)
        #expect(session.handle(.time(20.2)) == [.playInterstitial(adLocked, rate: 1)])
        #expect(session.activeInterstitial == adLocked)
        #expect(session.rate == 1)
        _ = session.handle(.time(3))
        #expect(session.interstitialTime == 3)
        #expect(session.currentTime == 20)
        // The primary stopped at 20.2: it goes on from there, so 20–20.2 does not play twice.
        #expect(session.handle(.ended) == [.resumePrimary(at: 20.2, rate: 2)])
        #expect(session.activeInterstitial == nil)
        #expect(session.rate == 2)
    }

    @Test func restrictedEventCannotBeSkippedOrSpedUp() {
        var session = makeSession(interstitials: [adLocked])
        _ = session.handle(.play)
        _ = session.handle(.time(19))
        #expect(session.handle(.time(20.5)) == [.playInterstitial(adLocked, rate: 1)])
        #expect(session.handle(.skip(by: 10)).refusal == .seekingRestrictedDuringInterstitial)
        #expect(session.handle(.seek(to: 50)).refusal == .seekingRestrictedDuringInterstitial)
        #expect(session.handle(.selectSpeed(rate: 2)).refusal == .rateRestrictedDuringInterstitial)
        #expect(session.handle(.pause).commands == [.pause])
        #expect(session.handle(.play).commands == [.play(rate: 1)])
    }

    @Test func unrestrictedEventCanBeSkippedBySeeking() {
        let ad = InterstitialEvent(id: "free", time: 20, url: "/ad.json", duration: 5)
        var session = makeSession(interstitials: [ad])
        _ = session.handle(.play)
        _ = session.handle(.time(19))
        #expect(session.handle(.time(20.1)) == [.playInterstitial(ad, rate: 1)])
        #expect(session.handle(.seek(to: 30)).commands == [.resumePrimary(at: 30, rate: 1)])
        #expect(session.activeInterstitial == nil)
        #expect(session.schedule.hasPlayed(ad))
    }

    @Test func seekingOverAConstrainingEventPlaysItFirst() {
        var session = makeSession(interstitials: [adLocked])
        _ = session.handle(.play)
        _ = session.handle(.time(5))
        #expect(session.handle(.seek(to: 45)).commands == [.playInterstitial(adLocked, rate: 1)])
        #expect(session.handle(.ended) == [.resumePrimary(at: 45, rate: 1)])
        #expect(session.currentTime == 45)
    }

    @Test func seekingOverAnUnconstrainedEventSkipsIt() {
        let ad = InterstitialEvent(id: "free", time: 20, url: "/ad.json", duration: 5)
        var session = makeSession(interstitials: [ad])
        _ = session.handle(.play)
        #expect(session.handle(.seek(to: 45)).commands == [.seek(to: 45)])
        #expect(session.activeInterstitial == nil)
    }

    @Test func aOnceEventPlaysOnlyOnce() {
        var adLocked = adLocked
        adLocked.willPlayOnce = true
        var session = makeSession(interstitials: [adLocked])
        _ = session.handle(.play)
        _ = session.handle(.time(19))
        #expect(session.handle(.time(20.1)) == [.playInterstitial(adLocked, rate: 1)])
        _ = session.handle(.ended)
        _ = session.handle(.seek(to: 10))
        _ = session.handle(.time(18))
        #expect(session.handle(.time(20.5)).isEmpty)
        #expect(session.handle(.seek(to: 50)).commands == [.seek(to: 50)])
    }

    @Test func pausedPlayheadDoesNotTriggerEvents() {
        var session = makeSession(interstitials: [adLocked])
        _ = session.handle(.time(19))
        #expect(session.handle(.time(20.5)).isEmpty)
    }

    @Test func aJumpInReportedTimeIsNotPlaybackPassingAnEvent() {
        var session = makeSession(interstitials: [adLocked])
        _ = session.handle(.play)
        _ = session.handle(.time(2))
        #expect(session.handle(.time(40)).isEmpty)
    }

    @Test func preRollPlaysBeforeTheItem() {
        let preRoll = InterstitialEvent(id: "pre", time: 0, url: "/pre.json", duration: 3, cue: .joinCue)
        var session = makeSession(interstitials: [preRoll])
        #expect(session.handle(.play).commands == [.playInterstitial(preRoll, rate: 1)])
        #expect(session.handle(.ended) == [.resumePrimary(at: 0, rate: 1)])
        _ = session.handle(.pause)
        #expect(session.handle(.play).commands == [.play(rate: 1)])
    }

    @Test func replacingEventResumesAfterItsOffset() {
        let replace = InterstitialEvent(id: "rep", time: 30, url: "/ad.json", duration: 5, resumptionOffset: 5)
        var session = makeSession(interstitials: [replace])
        _ = session.handle(.play)
        _ = session.handle(.time(29))
        #expect(session.handle(.time(30)) == [.playInterstitial(replace, rate: 1)])
        #expect(session.handle(.ended) == [.resumePrimary(at: 35, rate: 1)])
    }

    @Test func postRollPlaysAfterTheEndThenTheItemEnds() {
        let postRoll = InterstitialEvent(id: "post", time: 0, url: "/post.json", duration: 3, cue: .leaveCue)
        var session = makeSession(interstitials: [postRoll])
        _ = session.handle(.play)
        #expect(session.handle(.ended) == [.playInterstitial(postRoll, rate: 1)])
        #expect(session.status == .playing)
        #expect(session.handle(.ended) == [.resumePrimary(at: 60, rate: 0)])
        #expect(session.status == .ended)
    }

    @Test func pausedAdResumesPrimaryPaused() {
        var session = makeSession(interstitials: [adLocked])
        _ = session.handle(.play)
        _ = session.handle(.time(19))
        #expect(session.handle(.time(20.1)) == [.playInterstitial(adLocked, rate: 1)])
        _ = session.handle(.pause)
        #expect(session.handle(.ended) == [.resumePrimary(at: 20.1, rate: 0)])
    }

    @Test func theNextBoundaryIsTheNextUnplayedBreakAhead() {
        let later = InterstitialEvent(id: "later", time: 40, url: "/ad.json", duration: 5)
        let preRoll = InterstitialEvent(id: "pre", time: 0, url: "/pre.json", duration: 3, cue: .joinCue)
        var adLocked = adLocked
        adLocked.willPlayOnce = true
        var session = makeSession(interstitials: [preRoll, adLocked, later])
        #expect(session.nextBoundary == 20)
        _ = session.handle(.play)
        _ = session.handle(.ended)
        _ = session.handle(.time(19.9))
        #expect(session.nextBoundary == 20)
        _ = session.handle(.time(20))
        #expect(session.activeInterstitial == adLocked)
        #expect(session.nextBoundary == nil, "no hold while the break plays")
        _ = session.handle(.ended)
        #expect(session.nextBoundary == 40)
        _ = session.handle(.seek(to: 10))
        #expect(session.nextBoundary == 40, "a break plays once")
        _ = session.handle(.seek(to: 50))
        #expect(session.nextBoundary == nil)
    }

    @Test func aRendererHeldAtTheBoundaryResumesOnTheSameFrame() {
        var session = makeSession(interstitials: [adLocked])
        _ = session.handle(.play)
        _ = session.handle(.time(19.8))
        // The page paused its element 3 ms after the boundary and reported that time.
        #expect(session.handle(.time(20.003)) == [.playInterstitial(adLocked, rate: 1)])
        #expect(session.handle(.ended) == [.resumePrimary(at: 20.003, rate: 1)])
        #expect(session.currentTime == 20.003)
    }

    @Test func aHoldThatStartsNothingIsReleased() {
        var session = makeSession(interstitials: [adLocked])
        _ = session.handle(.play)
        _ = session.handle(.time(10))
        // Reports stopped for a while (a throttled background tab): the playhead is at the
        // boundary but the report is no evidence of playback passing it.
        #expect(session.handle(.time(20.01)) == [.play(rate: 1)])
        #expect(session.activeInterstitial == nil)
    }

    @Test func aStalledPlayerStillPlaysTheBreakItReaches() {
        var session = makeSession(interstitials: [adLocked])
        _ = session.handle(.play)
        _ = session.handle(.time(19.5))
        _ = session.handle(.stalled)
        #expect(session.status == .waiting)
        #expect(session.handle(.time(20)) == [.playInterstitial(adLocked, rate: 1)])
        #expect(session.status == .playing)
    }

    @Test func timelineMarksEachEvent() {
        let events = [
            InterstitialEvent(id: "pre", time: 0, url: "/p", duration: 3, cue: .joinCue),
            InterstitialEvent(id: "rep", time: 30, url: "/r", duration: 5, resumptionOffset: 5, timelineOccupancy: .range),
            InterstitialEvent(id: "post", time: 0, url: "/e", duration: 3, cue: .leaveCue),
        ]
        let session = makeSession(interstitials: events)
        #expect(
            session.interstitialTimeRanges == [
                InterstitialTimeRange(eventID: "pre", start: 0, duration: 0, cue: .joinCue),
                InterstitialTimeRange(eventID: "rep", start: 30, duration: 5, occupancy: .range),
                InterstitialTimeRange(eventID: "post", start: 60, duration: 0, cue: .leaveCue),
            ])
    }
}
