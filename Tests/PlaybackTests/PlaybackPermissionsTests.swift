import Testing

@testable import Playback

/// The rules the page used to decide for itself, now the session's: what the controls may do,
/// the skip interval, a failed interstitial and blocked autoplay.
@Suite("Playback session: permissions")
struct PlaybackPermissionsTests {
    func readySession(interval: Double = 10) -> PlaybackSession {
        var session = PlaybackSessionStep.makeSession()
        session.setSkipInterval(interval)
        _ = session.handle(.ready(duration: 60))
        return session
    }

    @Test("Before the item is ready nothing can be sought; after, everything but skipping a break")
    func readiness() {
        var session = PlaybackSessionStep.makeSession()
        #expect(!session.permissions.canSeek && session.permissions.canPlayPause && !session.permissions.canSkipInterstitial)
        _ = session.handle(.ready(duration: 60))
        #expect(session.permissions.canSeek && session.permissions.canChangeRate && !session.permissions.canSkipInterstitial)
    }

    @Test("A restricted break forbids seeking, speed changes and skipping; an unrestricted one allows a skip")
    func breaks() {
        var session = readySession()
        _ = session.handle(.play)  // the pre-roll (unrestricted)
        #expect(session.activeInterstitial?.id == "pre")
        #expect(session.permissions.canSkipInterstitial && session.permissions.canSeek && session.permissions.canChangeRate)
        #expect(session.handle(.skipInterstitial).commands == [.resumePrimary(at: 0, rate: 1)])
        #expect(session.activeInterstitial == nil && !session.permissions.canSkipInterstitial)
        _ = session.handle(.time(7.9))
        _ = session.handle(.time(8.1))  // reaches the restricted mid-roll
        #expect(session.activeInterstitial?.id == "mid")
        let allowed = session.permissions
        #expect(!allowed.canSeek && !allowed.canChangeRate && !allowed.canSkipInterstitial && allowed.canPlayPause)
        #expect(session.handle(.skipInterstitial).refusal == .interstitialNotSkippable)
        #expect(session.handle(.skipInterval(direction: 1)).refusal == .seekingRestrictedDuringInterstitial)
    }

    @Test("Skips move by the stored interval, in both directions, clamped to the item")
    func interval() {
        var session = readySession(interval: 30)
        _ = session.handle(.time(40))
        #expect(session.permissions.skipInterval == 30)
        #expect(session.handle(.skipInterval(direction: -1)).commands == [.seek(to: 10)])
        #expect(session.handle(.skipInterval(direction: 1)).commands == [.seek(to: 40)])
        #expect(session.handle(.skipInterval(direction: 0)).refusal == .invalidValue)
        session.setSkipInterval(1_000)
        #expect(session.skipInterval == 300)
        session.setSkipInterval(.nan)
        #expect(session.skipInterval == 10)
    }

    @Test("A failed break is skipped and reported; the primary goes on where it stopped")
    func failedBreak() {
        var session = readySession()
        _ = session.handle(.play)
        #expect(session.activeInterstitial?.id == "pre")
        #expect(session.handle(.interstitialFailed(message: "HTTP 404")) == [.resumePrimary(at: 0, rate: 1)])
        #expect(session.status == .playing && session.interstitialFailure == "HTTP 404" && session.activeInterstitial == nil)
        // Reported with no break playing, it changes nothing.
        #expect(session.handle(.interstitialFailed(message: "late")) == [])
        #expect(session.interstitialFailure == "HTTP 404")
    }

    @Test("Blocked autoplay leaves the session paused and says so until the viewer presses play")
    func autoplay() {
        var session = PlaybackSessionStep.makeSession()
        _ = session.handle(.skipInterstitial)
        _ = session.handle(.play)
        _ = session.handle(.ready(duration: 60))
        _ = session.handle(.autoplayBlocked)
        #expect(session.autoplayBlocked && !session.desiresPlayback && session.status == .paused)
        _ = session.handle(.play)
        #expect(!session.autoplayBlocked && session.desiresPlayback)
    }
}

@Suite("Playback session: phase")
struct PlaybackPhaseTests {
    @Test("The phase carries the break, its clock and where the primary resumes; the failure its message")
    func phaseCarriesItsData() throws {
        var session = PlaybackSessionStep.makeSession()
        #expect(session.phase == .loading)
        _ = session.handle(.ready(duration: 60))
        #expect(session.phase == .primary(.paused))
        _ = session.handle(.skipInterstitial)  // nothing to skip yet
        _ = session.handle(.seek(to: 31))  // passes the restricted break at 8 s: it plays first
        guard case .interstitial(let playout, let activity) = session.phase else {
            Issue.record("expected a break, got \(session.phase)")
            return
        }
        #expect(playout.event.id == "mid" && playout.clock == 0 && playout.resumeAt == 31 && activity == .paused)
        #expect(playout.position == 1 && playout.count == 2 && playout.upNext.map(\.id) == ["mid-2"])
        _ = session.handle(.play)
        _ = session.handle(.time(2.5))
        var later = playout
        later.clock = 2.5
        #expect(session.phase == .interstitial(later, activity: .playing))
        _ = session.handle(.ended)
        #expect(session.playout?.event.id == "mid-2" && session.playout?.position == 2)
        _ = session.handle(.ended)
        #expect(session.phase == .primary(.playing) && session.currentTime == 31)
        _ = session.handle(.failed(message: "decode error"))
        #expect(session.phase == .failed(message: "decode error") && session.failureMessage == "decode error")
    }
}
