import Testing

@testable import Playback

/// Reports and commands cross on the wire: a renderer's report about what played before the
/// session's last command must not be read as news about what plays now.
@Suite("Playback session: reports about an item no longer playing")
struct StaleReportTests {
    let ad = InterstitialEvent(id: "ad", time: 6, url: "/ad.json", duration: 5, playoutLimit: 4)
    let second = InterstitialEvent(id: "second", time: 6, url: "/second.json", duration: 5)

    /// A session playing from 5 s that has just reached the break at 6 s.
    func inTheBreak(_ events: [InterstitialEvent]) -> PlaybackSession {
        var session = makeSession(interstitials: events)
        _ = session.handle(.play)
        _ = session.handle(.time(5.5), about: .primary)
        _ = session.handle(.time(6.1), about: .primary)
        return session
    }

    @Test func theAdsClockSentBeforeASkipDoesNotMoveThePrimary() {
        let skippable = InterstitialEvent(id: "ad", time: 6, url: "/ad.json", duration: 5)
        var session = inTheBreak([skippable])
        #expect(session.renderedItem == .interstitial(eventID: "ad", assetIndex: 0))
        _ = session.handle(.time(1.5), about: .interstitial(eventID: "ad", assetIndex: 0))
        #expect(session.handle(.skipInterstitial).commands == [.resumePrimary(at: 6.1, rate: 1)])
        // The ad's element reported 1.56 s just before it heard the skip.
        #expect(session.handle(.time(1.56), about: .interstitial(eventID: "ad", assetIndex: 0)).isEmpty)
        #expect(session.currentTime == 6.1)
        #expect(session.renderedItem == .primary)
        // Without the item, the same report is read as the primary's time (the old behaviour).
        var unattributed = inTheBreak([skippable])
        _ = unattributed.handle(.skipInterstitial)
        _ = unattributed.handle(.time(1.56))
        #expect(unattributed.currentTime == 1.56)
    }

    @Test func thePrimarysTimeSentAsTheBreakBeganIsNotTheAdsClock() {
        var session = inTheBreak([ad])
        // The primary's element went on to 6.3 s before it heard the break: not 6.3 s of the
        // ad, which would pass its 4 s playout limit and end it at once.
        #expect(session.handle(.time(6.3), about: .primary).isEmpty)
        #expect(session.activeInterstitial == ad)
        #expect(session.interstitialTime == 0)
        _ = session.handle(.time(1), about: .interstitial(eventID: "ad", assetIndex: 0))
        #expect(session.interstitialTime == 1)
    }

    @Test func anAdsLateEndDoesNotEndTheNextAdOrThePrimary() {
        var session = inTheBreak([ad, second])
        #expect(session.activeInterstitial == ad)
        // The playout limit ends the first ad; the second plays.
        #expect(session.handle(.time(4), about: .interstitial(eventID: "ad", assetIndex: 0)) == [.playInterstitial(second, rate: 1)])
        // The first ad's element reached its end before it heard that.
        #expect(session.handle(.ended, about: .interstitial(eventID: "ad", assetIndex: 0)).isEmpty)
        #expect(session.activeInterstitial == second)
        #expect(session.handle(.interstitialFailed(message: "late"), about: .interstitial(eventID: "ad", assetIndex: 0)).isEmpty)
        #expect(session.activeInterstitial == second)
        // The second ad's own end resumes the primary; an ad's end after that ends nothing.
        #expect(session.handle(.ended, about: .interstitial(eventID: "second", assetIndex: 0)) == [.resumePrimary(at: 6.1, rate: 1)])
        #expect(session.handle(.ended, about: .interstitial(eventID: "second", assetIndex: 0)).isEmpty)
        #expect(session.status == .playing)
    }

    @Test func anEarlierAssetsReportDoesNotMoveTheNextAssetsClock() {
        let listed = InterstitialEvent(id: "list", time: 6, url: "", duration: 10, assetListURL: "https://a/list.json")
        var session = inTheBreak([listed])
        _ = session.handle(
            .interstitialAssetList(
                eventID: "list", assets: [InterstitialAsset(uri: "https://a/1.m3u8", duration: 3), InterstitialAsset(uri: "https://a/2.m3u8", duration: 3)]),
            about: nil)
        _ = session.handle(.time(1), about: .interstitial(eventID: "list", assetIndex: 0))
        _ = session.handle(.ended, about: .interstitial(eventID: "list", assetIndex: 0))
        #expect(session.renderedItem == .interstitial(eventID: "list", assetIndex: 1))
        let clock = session.interstitialTime
        // Asset 1's last time report, sent before its end: not 2.9 s into asset 2.
        #expect(session.handle(.time(2.9), about: .interstitial(eventID: "list", assetIndex: 0)).isEmpty)
        #expect(session.interstitialTime == clock)
        _ = session.handle(.time(1), about: .interstitial(eventID: "list", assetIndex: 1))
        #expect(session.interstitialTime == clock + 1)
    }

    @Test func reportsThatHoldWhateverPlaysAreTakenDuringABreak() {
        var session = inTheBreak([ad])
        _ = session.handle(.volume(level: 0.3, muted: false), about: .primary)
        #expect(session.volume == 0.3)
        // The primary's metadata may change while an ad plays (its duration, learnt later).
        _ = session.handle(.ready(duration: 25), about: .primary)
        #expect(session.duration == 25)
    }
}
