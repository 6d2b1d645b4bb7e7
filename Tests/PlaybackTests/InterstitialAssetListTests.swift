import Testing

@testable import Playback

/// An event whose content is an asset list (`X-ASSET-LIST`) plays every asset of the list in
/// order, each one ad of the break ("Ad 1 of 2", "Ad 2 of 2"), while its skip control, playout
/// limit and resumption offset apply to the event as a whole; and the session names what plays
/// after the current ad, for the page to load ahead.
@Suite("Playback session: asset lists and the next ad of a break")
struct InterstitialAssetListTests {
    func listed(
        _ id: String, at time: Double = 20, offset: Double = 0, limit: Double? = nil, skip: InterstitialSkipControl? = nil,
        once: Bool = false
    ) -> InterstitialEvent {
        InterstitialEvent(
            id: id, time: time, url: "", duration: 10, resumptionOffset: offset, willPlayOnce: once, assetListURL: "https://ads.example/\(id).json",
            playoutLimit: limit, skipControl: skip)
    }

    func ad(_ id: String, at time: Double = 20, offset: Double = 0) -> InterstitialEvent {
        InterstitialEvent(id: id, time: time, url: "/\(id).json", duration: 5, resumptionOffset: offset)
    }

    let two = [InterstitialAsset(uri: "https://ads.example/one.m3u8", duration: 5), InterstitialAsset(uri: "https://ads.example/two.m3u8", duration: 5)]

    /// A playing session held at 20 s, where its break starts.
    func reachBreak(_ session: inout PlaybackSession) -> [RendererCommand] {
        _ = session.handle(.play)
        _ = session.handle(.time(19.8))
        return session.handle(.time(20))
    }

    /// Plays the current ad from `from` through `to` (its own time) in quarter-second reports; the first commands any report produced.
    func playAd(_ session: inout PlaybackSession, from: Double = 0, to: Double) -> [RendererCommand] {
        var time = from
        while time <= to + 1e-9 {
            let commands = session.handle(.time(time))
            if !commands.isEmpty { return commands }
            time += 0.25
        }
        return []
    }

    @Test("A list resolved ahead of its break plays each asset in order, Ad 1 of 2 then Ad 2 of 2, then the primary resumes once by the event's offset")
    func everyAssetPlaysInOrder() {
        let event = listed("list", offset: 3)
        var session = makeSession(interstitials: [event])
        _ = session.handle(.play)
        _ = session.handle(.time(16))
        // The page resolves the list as the break approaches and reports it.
        #expect(session.handle(.interstitialAssetList(eventID: "list", assets: two)).isEmpty)
        #expect(reachBreak(&session) == [.playInterstitial(event, rate: 1)])
        #expect(session.interstitialBreakPosition! == (1, 2))
        #expect(session.playout?.asset == two[0])
        #expect(playAd(&session, to: 5).isEmpty)
        #expect(session.handle(.ended) == [.playInterstitialAsset(event, asset: two[1], index: 1, rate: 1)])
        #expect(session.interstitialBreakPosition! == (2, 2))
        #expect(session.currentInterstitialEvent == event, "the same event goes on")
        _ = playAd(&session, to: 5)
        #expect(session.interstitialTime == 10, "the event's clock runs on across its assets")
        #expect(session.handle(.ended) == [.resumePrimary(at: 23, rate: 1)], "one resumption offset for the whole event")
        let notes = session.takeInterstitialNotifications().map { [$0.kind.rawValue, $0.reason?.rawValue ?? ""] }
        #expect(notes == [["will-present", ""], ["did-finish", "completed"]], "one will-present and one did-finish for the event")
    }

    @Test("A list resolved once its break started counts at once; the first asset is the one playing")
    func listResolvedDuringTheBreak() {
        let event = listed("list")
        var session = makeSession(interstitials: [event, ad("after")])
        #expect(reachBreak(&session) == [.playInterstitial(event, rate: 1)])
        #expect(session.interstitialBreakPosition! == (1, 2), "unresolved, the list counts as one ad")
        _ = session.handle(.interstitialAssetList(eventID: "list", assets: two))
        #expect(session.interstitialBreakPosition! == (1, 3))
        _ = playAd(&session, to: 5)
        #expect(session.handle(.ended) == [.playInterstitialAsset(event, asset: two[1], index: 1, rate: 1)])
        #expect(session.interstitialBreakPosition! == (2, 3))
        #expect(session.handle(.ended) == [.playInterstitial(ad("after"), rate: 1)])
        #expect(session.interstitialBreakPosition! == (3, 3))
    }

    @Test("The skip control's offset counts from the event's start across its assets, and skipping ends the whole event")
    func skipControlAppliesToTheEvent() {
        let event = listed("list", skip: InterstitialSkipControl(offset: 6))
        var session = makeSession(interstitials: [event])
        _ = session.handle(.interstitialAssetList(eventID: "list", assets: two))
        _ = reachBreak(&session)
        _ = playAd(&session, to: 5)
        #expect(!session.permissions.canSkipInterstitial, "5 s into the event")
        _ = session.handle(.ended)
        _ = session.handle(.time(0.5))
        #expect(!session.permissions.canSkipInterstitial, "5.5 s into the event, 0.5 s into its second asset")
        _ = session.handle(.time(1.25))
        #expect(session.permissions.canSkipInterstitial, "6.25 s into the event")
        #expect(session.handle(.skipInterstitial).commands == [.resumePrimary(at: 20, rate: 1)], "no asset of the event is left to play")
    }

    @Test("The playout limit ends the event across its assets, and no later asset of it is offered ahead")
    func playoutLimitAppliesToTheEvent() {
        let event = listed("list", limit: 7)
        var session = makeSession(interstitials: [event, ad("after")])
        _ = session.handle(.interstitialAssetList(eventID: "list", assets: two))
        _ = reachBreak(&session)
        #expect(session.nextInterstitialItem == InterstitialItem(event: event, asset: two[1], index: 1))
        _ = playAd(&session, to: 5)
        _ = session.handle(.ended)
        #expect(playAd(&session, to: 3) == [.playInterstitial(ad("after"), rate: 1)], "7 s into the event: 5 s of the first asset, 2 s of the second")
        let finished = session.takeInterstitialNotifications().filter { $0.kind == .didFinish }
        #expect(finished.map(\.reason) == [.playoutLimit])

        // A limit the first asset reaches: the page is told to load the break's next event instead.
        let short = listed("short", limit: 4)
        var other = makeSession(interstitials: [short, ad("after")])
        _ = other.handle(.interstitialAssetList(eventID: "short", assets: two))
        _ = reachBreak(&other)
        #expect(other.nextInterstitialItem == InterstitialItem(event: ad("after")))
    }

    @Test("What plays next in a break: the next asset of the list, then the next event, then nothing (the primary)")
    func theNextItem() {
        let event = listed("list")
        var session = makeSession(interstitials: [ad("first"), event, ad("later", at: 40)])
        #expect(session.nextInterstitialItem == nil, "no break plays")
        _ = reachBreak(&session)
        _ = session.handle(.interstitialAssetList(eventID: "list", assets: two))
        #expect(session.nextInterstitialItem == InterstitialItem(event: event), "the next event, from its start")
        _ = session.handle(.ended)
        #expect(session.nextInterstitialItem == InterstitialItem(event: event, asset: two[1], index: 1))
        _ = session.handle(.ended)
        #expect(session.nextInterstitialItem == nil, "the primary resumes next; the break at 40 s is another break")
    }

    @Test("A failed asset is reported and the list goes on; a failed last asset ends the event as failed")
    func aFailedAssetIsSkipped() {
        let event = listed("list")
        var session = makeSession(interstitials: [event])
        _ = session.handle(.interstitialAssetList(eventID: "list", assets: two))
        _ = reachBreak(&session)
        #expect(session.handle(.interstitialFailed(message: "404")) == [.playInterstitialAsset(event, asset: two[1], index: 1, rate: 1)])
        #expect(session.interstitialFailure == "404")
        #expect(session.handle(.interstitialFailed(message: "decode")) == [.resumePrimary(at: 20, rate: 1)])
        #expect(session.takeInterstitialNotifications().last?.reason == .failed)
    }

    @Test("Lists for unknown events, for events without an asset list, or empty ones change nothing")
    func listsThatDoNotApply() {
        let event = listed("list")
        var session = makeSession(interstitials: [event, ad("plain")])
        _ = session.handle(.interstitialAssetList(eventID: "nope", assets: two))
        _ = session.handle(.interstitialAssetList(eventID: "plain", assets: two))
        _ = session.handle(.interstitialAssetList(eventID: "list", assets: []))
        _ = reachBreak(&session)
        #expect(session.interstitialBreakPosition! == (1, 2))
        #expect(session.playout?.assetLists.isEmpty == true)
        _ = session.handle(.interstitialAssetList(eventID: "plain", assets: two))
        #expect(session.interstitialBreakPosition! == (1, 2))
        #expect(session.handle(.ended) == [.playInterstitial(ad("plain"), rate: 1)], "an unresolved list plays as one ad")
    }

    @Test("A list is used for the break it was resolved for: a mid-roll that plays again is resolved again")
    func aReplayedBreakIsResolvedAgain() {
        let event = listed("list")
        var session = makeSession(interstitials: [event])
        _ = session.handle(.interstitialAssetList(eventID: "list", assets: two))
        _ = reachBreak(&session)
        _ = session.handle(.ended)
        _ = session.handle(.ended)
        #expect(session.activeInterstitial == nil)
        _ = session.handle(.seek(to: 15))
        _ = session.handle(.time(15))
        #expect(playAd(&session, from: 15.25, to: 20) == [.playInterstitial(event, rate: 1)])
        #expect(session.interstitialBreakPosition! == (1, 1), "not resolved again yet")
        #expect(session.handle(.ended) == [.resumePrimary(at: 20, rate: 1)])
    }

    @Test("A paused session goes on to the next asset paused")
    func pausedGoesOnPaused() {
        let event = listed("list")
        var session = makeSession(interstitials: [event])
        _ = session.handle(.interstitialAssetList(eventID: "list", assets: two))
        _ = reachBreak(&session)
        _ = session.handle(.pause)
        #expect(session.handle(.ended) == [.playInterstitialAsset(event, asset: two[1], index: 1, rate: 0)])
        #expect(session.invariantViolations.isEmpty)
    }
}
