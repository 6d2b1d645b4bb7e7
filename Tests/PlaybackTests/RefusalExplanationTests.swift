import Testing

@testable import Playback

/// What a viewer is told when the session refuses something during an ad: why, and for how
/// long, from the break's clock (issue 29, item 9).
@Suite("Playback session: refusals say why and for how long")
struct RefusalExplanationTests {
    func ad(_ id: String, restricted: Bool = true, skipAt offset: Double? = nil, duration: Double = 5) -> InterstitialEvent {
        InterstitialEvent(
            id: id, time: 20, url: "/\(id).json", duration: duration,
            restrictions: restricted ? [.requiresPlaybackAtPreferredRateForAdvancement] : [],
            skipControl: offset.map { InterstitialSkipControl(offset: $0) })
    }

    /// A session playing `event` at `clock` seconds into it.
    func playing(_ event: InterstitialEvent, at clock: Double, language: PlayerLanguage = .english) -> PlaybackSession {
        var session = makeSession(interstitials: [event], language: language)
        _ = session.handle(.play)
        var time = 19.0
        while session.activeInterstitial == nil, time < 22 {
            _ = session.handle(.time(time))
            time += 0.25
        }
        _ = session.handle(.time(clock))
        return session
    }

    @Test("Before the skip button: \"Ads can be skipped in 3 s\", for a skip, a seek or a faster speed")
    func untilTheSkipButton() {
        var session = playing(ad("a", skipAt: 5), at: 2.2)
        let skip = session.handle(.skipInterstitial).refusal
        #expect(skip == .interstitialNotSkippable)
        let explained = session.explanation(of: .interstitialNotSkippable)
        #expect(explained.availableIn == 3)
        #expect(explained.message == "Ads can be skipped in 3 s.")
        #expect(session.handle(.skip(by: 10)).refusal == .seekingRestrictedDuringInterstitial)
        #expect(session.explanation(of: .seekingRestrictedDuringInterstitial).message == "Seeking is off during this ad. Ads can be skipped in 3 s.")
        #expect(session.handle(.selectSpeed(rate: 2)).refusal == .rateRestrictedDuringInterstitial)
        #expect(session.explanation(of: .rateRestrictedDuringInterstitial).availableIn == 3)
        _ = session.handle(.time(4.1))
        #expect(session.explanation(of: .interstitialNotSkippable).message == "Ads can be skipped in 1 s.")
    }

    @Test("Without a skip button: how long until the ad ends")
    func untilTheAdEnds() {
        let session = playing(ad("a"), at: 1)
        let explained = session.explanation(of: .seekingRestrictedDuringInterstitial)
        #expect(explained.availableIn == 4)
        #expect(explained.message == "Seeking is off during this ad. The ad ends in 4 s.")
        #expect(session.explanation(of: .interstitialNotSkippable).message == "This ad can’t be skipped. The ad ends in 4 s.")
    }

    @Test("In Japanese")
    func japanese() {
        let session = playing(ad("a", skipAt: 5), at: 2, language: .japanese)
        #expect(session.explanation(of: .interstitialNotSkippable).message == "広告はあと3秒でスキップできます。")
        #expect(session.explanation(of: .seekingRestrictedDuringInterstitial).message == "この広告の間はシークできません。広告はあと3秒でスキップできます。")
    }

    @Test("Outside a break, or an ad of unknown length: no wait, and a plain reason")
    func noWait() {
        let session = makeSession()
        let explained = session.explanation(of: .interstitialNotSkippable)
        #expect(explained.availableIn == nil)
        #expect(explained.message == "No ad is playing.")
        #expect(session.explanation(of: .noSubtitles).message == "This video has no subtitles.")
        let unknown = playing(ad("a", duration: 0), at: 1)
        #expect(unknown.explanation(of: .seekingRestrictedDuringInterstitial).availableIn == nil)
        #expect(unknown.explanation(of: .seekingRestrictedDuringInterstitial).message == "Seeking is off during this ad.")
    }
}
