import Testing

@testable import Playback

/// A session for a 60-second item, already ready unless told otherwise.
func makeSession(
    speeds: [PlaybackSpeed]? = nil,
    subtitles: [MediaOption] = [],
    interstitials: [InterstitialEvent] = [],
    language: PlayerLanguage = .english,
    ready: Bool = true
) -> PlaybackSession {
    var session = PlaybackSession(
        id: "s1", assetID: "a1", metadata: DisplayMetadata(title: "Clip"), language: language,
        speeds: speeds,
        audioOptions: [
            MediaOption(id: "en", kind: .audio, name: "English", language: "en", isDefault: true),
            MediaOption(id: "fr", kind: .audio, name: "Français", language: "fr"),
        ],
        subtitleOptions: subtitles, interstitials: interstitials)
    if ready { _ = session.handle(.ready(duration: 60)) }
    return session
}

extension Result where Success == [RendererCommand], Failure == PlaybackRefusal {
    var commands: [RendererCommand]? { try? get() }
    var refusal: PlaybackRefusal? {
        if case .failure(let refusal) = self { return refusal }
        return nil
    }
}

@Suite("Playback session: play, pause, seek")
struct PlaybackSessionTransportTests {
    @Test func startsLoadingThenPausedWhenReady() {
        var session = makeSession(ready: false)
        #expect(session.status == .loading)
        #expect(session.handle(.ready(duration: 60)).isEmpty)
        #expect(session.status == .paused)
        #expect(session.duration == 60)
    }

    @Test func playBeforeReadyStartsOnceReady() {
        var session = makeSession(ready: false)
        #expect(session.handle(.play).commands == [])
        #expect(session.handle(.ready(duration: 60)) == [.play(rate: 1)])
        #expect(session.status == .playing)
    }

    @Test func seekBeforeReadyIsRefused() {
        var session = makeSession(ready: false)
        #expect(session.handle(.skip(by: 10)).refusal == .notReady)
    }

    @Test func toggleAlternates() {
        var session = makeSession()
        #expect(session.handle(.togglePlayPause).commands == [.play(rate: 1)])
        #expect(session.rate == 1)
        #expect(session.handle(.togglePlayPause).commands == [.pause])
        #expect(session.status == .paused)
        #expect(session.rate == 0)
    }

    @Test func skipMovesTenSecondsAndClampsToTheItem() {
        var session = makeSession()
        _ = session.handle(.time(25))
        #expect(session.handle(.skip(by: 10)).commands == [.seek(to: 35)])
        #expect(session.handle(.skip(by: -10)).commands == [.seek(to: 25)])
        _ = session.handle(.time(4))
        #expect(session.handle(.skip(by: -10)).commands == [.seek(to: 0)])
        _ = session.handle(.time(55))
        #expect(session.handle(.skip(by: 10)).commands == [.seek(to: 60)])
    }

    @Test func numberKeysJumpToTenths() {
        var session = makeSession()
        #expect(session.handle(.seekToFraction(0.3)).commands == [.seek(to: 18)])
        #expect(session.currentTime == 18)
        #expect(session.handle(.seekToFraction(1.7)).commands == [.seek(to: 60)])
    }

    @Test func playAfterEndRestartsFromTheBeginning() {
        var session = makeSession()
        _ = session.handle(.play)
        #expect(session.handle(.ended).isEmpty)
        #expect(session.status == .ended)
        #expect(session.desiresPlayback == false)
        #expect(session.handle(.play).commands == [.seek(to: 0), .play(rate: 1)])
        #expect(session.status == .playing)
    }

    @Test func seekingBackAfterEndLeavesTheEndedState() {
        var session = makeSession()
        _ = session.handle(.ended)
        _ = session.handle(.seek(to: 30))
        #expect(session.status == .paused)
    }

    @Test func stallWaitsThenPlaysAgain() {
        var session = makeSession()
        _ = session.handle(.play)
        _ = session.handle(.stalled)
        #expect(session.status == .waiting)
        _ = session.handle(.playing)
        #expect(session.status == .playing)
    }

    @Test func stallWhilePausedChangesNothing() {
        var session = makeSession()
        _ = session.handle(.stalled)
        #expect(session.status == .paused)
    }

    @Test func failureStopsEverything() {
        var session = makeSession()
        _ = session.handle(.play)
        _ = session.handle(.failed(message: "MEDIA_ERR_DECODE: bad segment"))
        #expect(session.status == .failed)
        #expect(session.failureMessage == "MEDIA_ERR_DECODE: bad segment")
        #expect(session.handle(.play).refusal == .failed)
        #expect(session.rate == 0)
    }
}

@Suite("Playback session: speeds")
struct PlaybackSessionSpeedTests {
    @Test func defaultsToSystemSpeedsAtNormal() {
        let session = makeSession()
        #expect(session.speeds.map(\.rate) == PlaybackSpeed.systemDefaultRates)
        #expect(session.selectedSpeed?.rate == 1)
    }

    @Test func playResumesAtTheSelectedSpeed() {
        var session = makeSession()
        _ = session.handle(.play)
        #expect(session.handle(.selectSpeed(rate: 1.5)).commands == [.play(rate: 1.5)])
        #expect(session.rate == 1.5)
        _ = session.handle(.pause)
        #expect(session.handle(.play).commands == [.play(rate: 1.5)])
        #expect(session.rate == 1.5)
        #expect(session.selectedSpeed?.rate == 1.5)
    }

    @Test func choosingWhilePausedOnlyRemembers() {
        var session = makeSession()
        #expect(session.handle(.selectSpeed(rate: 2)).commands == [])
        #expect(session.rate == 0)
        #expect(session.handle(.play).commands == [.play(rate: 2)])
    }

    @Test func replayAfterEndKeepsTheSpeed() {
        var session = makeSession()
        _ = session.handle(.selectSpeed(rate: 0.5))
        _ = session.handle(.ended)
        #expect(session.handle(.play).commands == [.seek(to: 0), .play(rate: 0.5)])
    }

    @Test func unofferedSpeedIsRefused() {
        var session = makeSession(speeds: [1, 3].map { PlaybackSpeed(rate: $0, language: .english) })
        #expect(session.handle(.selectSpeed(rate: 1.25)).refusal == .speedNotOffered)
        #expect(session.handle(.selectSpeed(rate: 3)).commands == [])
        #expect(session.selectedSpeed?.localizedName == "3× speed")
    }

    @Test func emptyListHidesSpeedsAndPlaysAtOne() {
        var session = makeSession(speeds: [])
        #expect(session.speeds.isEmpty)
        #expect(session.selectedSpeed == nil)
        #expect(session.handle(.selectSpeed(rate: 1)).refusal == .noSpeedsOffered)
        #expect(session.handle(.stepSpeed(by: 1)).refusal == .noSpeedsOffered)
        #expect(session.handle(.play).commands == [.play(rate: 1)])
    }

    @Test func customListIsSortedAndDeduplicated() {
        let session = makeSession(speeds: [2, 0.75, 2, 1, -1].map { PlaybackSpeed(rate: $0, language: .english) })
        #expect(session.speeds.map(\.rate) == [0.75, 1, 2])
        #expect(session.selectedSpeed?.rate == 1)
    }

    @Test func replacingTheListKeepsOrResetsTheSelection() {
        var session = makeSession()
        _ = session.handle(.selectSpeed(rate: 1.5))
        session.setSpeeds([1, 1.5, 3].map { PlaybackSpeed(rate: $0, language: .english) })
        #expect(session.selectedSpeed?.rate == 1.5)
        session.setSpeeds([0.5, 1].map { PlaybackSpeed(rate: $0, language: .english) })
        #expect(session.selectedSpeed?.rate == 1)
        session.setSpeeds([0.5, 0.8].map { PlaybackSpeed(rate: $0, language: .english) })
        #expect(session.selectedSpeed?.rate == 0.5)
    }

    @Test func stepSpeedWalksTheListAndStopsAtTheEnds() {
        var session = makeSession()
        _ = session.handle(.stepSpeed(by: 1))
        #expect(session.selectedSpeed?.rate == 1.25)
        for _ in 0..<10 { _ = session.handle(.stepSpeed(by: 1)) }
        #expect(session.selectedSpeed?.rate == 2)
        for _ in 0..<10 { _ = session.handle(.stepSpeed(by: -1)) }
        #expect(session.selectedSpeed?.rate == 0.5)
    }

    @Test func stepSpeedByAnyIntegerClampsInsteadOfTrapping() {
        var session = makeSession()
        _ = session.handle(.stepSpeed(by: Int.max))
        #expect(session.selectedSpeed?.rate == 2)
        _ = session.handle(.stepSpeed(by: Int.min))
        #expect(session.selectedSpeed?.rate == 0.5)
    }

    @Test func japaneseSessionNamesSpeedsInJapanese() {
        var session = makeSession(language: .japanese)
        #expect(session.speeds.map(\.localizedName) == ["0.5倍速", "標準速度", "1.25倍速", "1.5倍速", "2倍速"])
        _ = session.handle(.selectSpeed(rate: 2))
        session.setLanguage(.english)
        #expect(session.selectedSpeed?.localizedName == "Double speed")
        #expect(session.speeds.first?.localizedName == "Half speed")
    }
}

@Suite("Playback session: renditions")
struct PlaybackSessionRenditionTests {
    let subtitles = [
        MediaOption(id: "sub-en", kind: .subtitles, name: "English", language: "en"),
        MediaOption(id: "sub-ja", kind: .subtitles, name: "日本語", language: "ja"),
    ]

    @Test func defaultAudioIsSelected() {
        let session = makeSession()
        #expect(session.selectedAudioID == "en")
        #expect(session.selectedSubtitleID == nil)
    }

    @Test func audioSwitchAndUnknownRendition() {
        var session = makeSession()
        #expect(session.handle(.selectAudio(id: "fr")).commands == [.selectAudio(id: "fr")])
        #expect(session.selectedAudioID == "fr")
        #expect(session.handle(.selectAudio(id: "de")).refusal == .unknownRendition)
        #expect(session.handle(.selectSubtitles(id: "nope")).refusal == .unknownRendition)
    }

    @Test func captionsTogglePrefersTheInterfaceLanguageThenRemembers() {
        var session = makeSession(subtitles: subtitles, language: .japanese)
        #expect(session.handle(.toggleCaptions).commands == [.selectSubtitles(id: "sub-ja")])
        #expect(session.handle(.selectSubtitles(id: "sub-en")).commands == [.selectSubtitles(id: "sub-en")])
        #expect(session.handle(.toggleCaptions).commands == [.selectSubtitles(id: nil)])
        #expect(session.handle(.toggleCaptions).commands == [.selectSubtitles(id: "sub-en")])
    }

    @Test func captionsWithoutSubtitlesAreRefused() {
        var session = makeSession()
        #expect(session.handle(.toggleCaptions).refusal == .noSubtitles)
    }
}

@Suite("Playback session: how it begins")
struct PlaybackStartTests {
    @Test("A start time, a rate and autoplay given at creation are carried out on the first ready, in that order")
    func startsWhereAndHowItWasToldOnceReady() {
        var session = makeSession(ready: false)
        #expect(session.begin(with: PlaybackStart(time: 42, rate: 1.5, autoplay: true)).isEmpty)
        #expect(session.preferredRate == 1.5 && session.desiresPlayback)
        #expect(session.handle(.ready(duration: 60)) == [.seek(to: 42), .play(rate: 1.5)])
        #expect(session.currentTime == 42 && session.status == .playing)
        // Later readies (a new duration) do not seek again.
        #expect(session.handle(.ready(duration: 59)).isEmpty)
    }

    @Test("Without autoplay it waits paused at the start time")
    func withoutAutoplayItWaitsAtTheStart() {
        var session = makeSession(ready: false)
        _ = session.begin(with: PlaybackStart(time: 10, autoplay: false))
        #expect(session.handle(.ready(duration: 60)) == [.seek(to: 10)])
        #expect(session.status == .paused && !session.desiresPlayback)
    }

    @Test("A rate the player does not offer and a time that is not one are said, and the rest still applies")
    func whatCannotApplyIsSaid() {
        var session = makeSession(ready: false)
        let leftOut = session.begin(with: PlaybackStart(time: .nan, rate: 7, autoplay: true))
        #expect(leftOut.count == 2)
        #expect(leftOut[0].contains("7.0") && leftOut[1].contains("not a time"))
        #expect(session.handle(.ready(duration: 60)) == [.play(rate: 1)])
    }

    @Test("A start past the end is clamped to the end, as a seek is")
    func aStartPastTheEndIsClamped() {
        var session = makeSession(ready: false)
        _ = session.begin(with: PlaybackStart(time: 600, autoplay: false))
        #expect(session.handle(.ready(duration: 60)) == [.seek(to: 60)])
    }
}
