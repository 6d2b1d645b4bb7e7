import Testing

@testable import Playback

/// `X-SNAP` (a break's start and its resumption point moved to the primary's nearest segment
/// boundary) and the will-present / did-finish notifications, as the session applies them.
@Suite("Playback session: X-SNAP and interstitial notifications")
struct InterstitialSnapAndNotificationTests {
    /// 6-second segments of a 60-second item: boundaries at 0, 6, 12 … 60.
    static let boundaries = stride(from: 0.0, through: 60, by: 6).map { $0 }

    func ad(
        _ id: String, at time: Double, offset: Double = 0, snapOut: Bool = false, snapIn: Bool = false,
        cue: InterstitialEvent.Cue = .none, limit: Double? = nil, restrictions: InterstitialRestrictions = []
    ) -> InterstitialEvent {
        InterstitialEvent(
            id: id, time: time, url: "/\(id).json", duration: 5, resumptionOffset: offset, restrictions: restrictions, cue: cue,
            playoutLimit: limit, alignsStartWithPrimarySegmentBoundary: snapOut, alignsResumptionWithPrimarySegmentBoundary: snapIn)
    }

    func session(_ events: [InterstitialEvent]) -> PlaybackSession {
        var session = makeSession(interstitials: events)
        session.setPrimarySegmentBoundaries(Self.boundaries)
        return session
    }

    /// Plays from `from` through `to` in tenth-second reports; the first commands any report produced.
    func playThrough(_ session: inout PlaybackSession, from: Double, to: Double) -> [RendererCommand] {
        var time = from
        while time <= to + 1e-9 {
            let commands = session.handle(.time(time))
            if !commands.isEmpty { return commands }
            time += 0.1
        }
        return []
    }

    @Test("SNAP=OUT starts the break on the primary's nearest segment boundary: the hold, the marks and the break agree")
    func snapOutMovesTheStart() {
        var session = session([ad("late", at: 13.9, snapOut: true), ad("early", at: 40.5, snapOut: true), ad("plain", at: 50.5)])
        #expect(session.nextBoundary == 12, "13.9 s is nearer 12 than 18")
        #expect(session.interstitialTimeRanges.map(\.start) == [12, 42, 50.5])
        // The authored events are unchanged; only where they play moves.
        #expect(session.interstitialEvents.map(\.time) == [13.9, 40.5, 50.5])
        _ = session.handle(.play)
        #expect(session.handle(.time(11.9)).isEmpty)
        let commands = session.handle(.time(12))
        guard case .playInterstitial(let event, _) = commands.first else {
            Issue.record("no break at 12 s: \(commands)")
            return
        }
        #expect(event.id == "late" && event.time == 12)
        #expect(session.currentTime == 12)
        #expect(session.handle(.ended) == [.resumePrimary(at: 12, rate: 1)])
        #expect(session.nextBoundary == 42)
    }

    @Test("Without SNAP, or without known segment boundaries, a break starts where it was authored")
    func noSnapWithoutTheAttributeOrBoundaries() {
        var unsnapped = makeSession(interstitials: [ad("a", at: 13.9, snapOut: true)])
        #expect(unsnapped.nextBoundary == 13.9)
        _ = unsnapped.handle(.play)
        #expect(playThrough(&unsnapped, from: 13, to: 13.85).isEmpty)
        var plain = session([ad("a", at: 13.9)])
        #expect(plain.nextBoundary == 13.9)
        _ = plain.handle(.play)
        #expect(playThrough(&plain, from: 13, to: 13.85).isEmpty)
    }

    @Test("SNAP=IN resumes the primary on the segment boundary nearest the resumption point")
    func snapInMovesTheResumption() {
        // Stopped at 20, resumption offset 5: 25 is nearest 24.
        var session = session([ad("in", at: 20, offset: 5, snapIn: true), ad("out-in", at: 31, offset: 3.5, snapOut: true, snapIn: true)])
        _ = session.handle(.play)
        #expect(playThrough(&session, from: 19.5, to: 20.5).first == .playInterstitial(ad("in", at: 20, offset: 5, snapIn: true), rate: 1))
        #expect(session.playout?.resumeAt == 24)
        #expect(session.handle(.ended) == [.resumePrimary(at: 24, rate: 1)])
        // Both: starts at 30 (nearest 31), resumes at 30 + 3.5 = 33.5 → 36.
        let commands = playThrough(&session, from: 24, to: 31)
        guard case .playInterstitial(let event, _) = commands.first else {
            Issue.record("no break near 30 s: \(commands)")
            return
        }
        #expect(event.time == 30)
        #expect(session.handle(.ended) == [.resumePrimary(at: 36, rate: 1)])
    }

    @Test("SNAP=IN also moves the resumption point of a cancelled break")
    func snapInOnCancel() {
        var session = session([ad("in", at: 20, snapIn: true)])
        _ = session.handle(.play)
        _ = playThrough(&session, from: 19.5, to: 20.5)
        #expect(session.cancelCurrentEvent(withResumptionOffset: 2.5) == [.resumePrimary(at: 24, rate: 1)])
    }

    @Test("Breaks that snap to one boundary play as one break")
    func snappedEventsShareABreak() {
        var session = session([ad("a", at: 11, snapOut: true), ad("b", at: 13, snapOut: true)])
        _ = session.handle(.play)
        _ = playThrough(&session, from: 10, to: 12.5)
        #expect(session.interstitialBreakPosition! == (1, 2))
    }

    @Test("Will-present and did-finish come in order with how each event ended")
    func notifications() {
        let first = ad("first", at: 20)
        let second = ad("second", at: 20, limit: 2)
        var session = session([first, second, ad("failing", at: 40), ad("skippable", at: 50)])
        _ = session.handle(.play)
        #expect(session.takeInterstitialNotifications().isEmpty)
        _ = playThrough(&session, from: 19.5, to: 20.5)
        _ = session.handle(.ended)
        _ = session.handle(.time(2.1))
        let kinds = session.takeInterstitialNotifications().map { "\($0.kind.rawValue) \($0.event.id) \($0.reason?.rawValue ?? "")" }
        #expect(kinds == ["will-present first ", "did-finish first completed", "will-present second ", "did-finish second playout-limit"])
        #expect(session.takeInterstitialNotifications().isEmpty, "taken once")

        _ = playThrough(&session, from: 39.5, to: 40.5)
        _ = session.handle(.interstitialFailed(message: "HTTP 404"))
        let failed = session.takeInterstitialNotifications().last
        #expect(failed?.kind == .didFinish && failed?.reason == .failed && failed?.message == "HTTP 404")

        _ = playThrough(&session, from: 49.5, to: 50.5)
        _ = session.handle(.skipInterstitial)
        #expect(session.takeInterstitialNotifications().map(\.reason) == [nil, .skipped])
        #expect(session.takeInterstitialNotifications().isEmpty)
    }

    @Test("Cancelling and seeking out of a break are reported as such")
    func cancelAndSeekAway() {
        var session = session([ad("a", at: 20), ad("b", at: 30)])
        _ = session.handle(.play)
        _ = playThrough(&session, from: 19.5, to: 20.5)
        _ = session.cancelCurrentEvent(withResumptionOffset: 0)
        #expect(session.takeInterstitialNotifications().map(\.reason) == [nil, .cancelled])
        _ = playThrough(&session, from: 29.5, to: 30.5)
        _ = session.handle(.seek(to: 45))
        #expect(session.takeInterstitialNotifications().map(\.reason) == [nil, .seekedAway])
    }

    @Test("The upcoming break is the pre-roll before playback, then the next mid-roll, then the post-roll")
    func upcomingInterstitial() {
        var session = session([ad("pre", at: 0, cue: .joinCue), ad("mid", at: 30, snapOut: true), ad("post", at: 0, cue: .leaveCue)])
        #expect(session.upcomingInterstitial?.id == "pre")
        _ = session.handle(.play)
        #expect(session.upcomingInterstitial == nil, "a break plays")
        _ = session.handle(.ended)
        _ = session.handle(.time(1))
        #expect(session.upcomingInterstitial?.id == "mid")
        #expect(session.upcomingInterstitial?.time == 30, "where it plays")
        _ = session.handle(.seek(to: 45))
        #expect(session.upcomingInterstitial?.id == "post")
    }

    @Test("Unread notifications are bounded")
    func notificationsAreBounded() {
        var session = session([ad("a", at: 20)])
        _ = session.handle(.play)
        for _ in 0..<100 {
            _ = session.handle(.seek(to: 19.5))
            _ = playThrough(&session, from: 19.6, to: 20.5)
            _ = session.handle(.ended)
        }
        #expect(session.takeInterstitialNotifications().count == PlaybackSession.notificationLimit)
    }
}
