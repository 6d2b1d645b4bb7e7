import Testing

@testable import Playback

@Suite("Playback speeds")
struct PlaybackSpeedTests {
    @Test func systemDefaultsAreHalfToDouble() {
        #expect(PlaybackSpeed.systemDefaultSpeeds.map(\.rate) == [0.5, 1, 1.25, 1.5, 2])
        #expect(PlaybackSpeed.systemDefaultSpeeds(language: .japanese).map(\.rate) == [0.5, 1, 1.25, 1.5, 2])
    }

    @Test(arguments: [
        (0.5, "Half speed", "0.5×"),
        (1.0, "Normal speed", "1×"),
        (1.25, "1.25× speed", "1.25×"),
        (1.5, "1.5× speed", "1.5×"),
        (2.0, "Double speed", "2×"),
        (3.0, "3× speed", "3×"),
        (0.75, "0.75× speed", "0.75×"),
    ])
    func englishNames(rate: Double, name: String, numeric: String) {
        let speed = PlaybackSpeed(rate: rate, language: .english)
        #expect(speed.localizedName == name)
        #expect(speed.localizedNumericName == numeric)
    }

    @Test(arguments: [
        (0.5, "0.5倍速"),
        (1.0, "標準速度"),
        (1.25, "1.25倍速"),
        (1.5, "1.5倍速"),
        (2.0, "2倍速"),
        (4.0, "4倍速"),
    ])
    func japaneseNames(rate: Double, name: String) {
        let speed = PlaybackSpeed(rate: rate, language: .japanese)
        #expect(speed.localizedName == name)
        #expect(speed.localizedNumericName == PlaybackSpeed.numericName(for: rate))
    }

    @Test func customNamesAreKeptAndNumericNameIsDerived() {
        let speed = PlaybackSpeed(rate: 1.1, localizedName: "A touch faster")
        #expect(speed.localizedName == "A touch faster")
        #expect(speed.localizedNumericName == "1.1×")
    }

    @Test func speedsWithTheSameRateAreEqual() {
        #expect(PlaybackSpeed(rate: 2, language: .english) == PlaybackSpeed(rate: 2, language: .japanese))
        #expect(PlaybackSpeed(rate: 2, language: .english) != PlaybackSpeed(rate: 1.5, language: .english))
        #expect(Set(PlaybackSpeed.systemDefaultSpeeds + PlaybackSpeed.systemDefaultSpeeds(language: .japanese)).count == 5)
    }

    @Test func localizedSwitchesLanguageAndKeepsRate() {
        let double = PlaybackSpeed(rate: 2, language: .english).localized(.japanese)
        #expect(double.rate == 2)
        #expect(double.localizedName == "2倍速")
    }
}

@Suite("Player language")
struct PlayerLanguageTests {
    @Test(arguments: [
        ("ja-JP,ja;q=0.9,en-US;q=0.8", PlayerLanguage.japanese),
        ("en-US,en;q=0.9,ja;q=0.8", .english),
        ("fr-FR, ja;q=0.5, en;q=0.4", .japanese),
        ("en;q=0.2, ja;q=0.7", .japanese),
        ("ja;q=0, en", .english),
        ("", .english),
        ("de, fr", .english),
        ("JA", .japanese),
    ])
    func fromAcceptLanguage(header: String, expected: PlayerLanguage) {
        #expect(PlayerLanguage(acceptLanguage: header) == expected)
    }

    @Test func fromNavigatorLanguages() {
        #expect(PlayerLanguage(preferred: ["ja_JP"]) == .japanese)
        #expect(PlayerLanguage(preferred: ["es", "en-GB", "ja"]) == .english)
        #expect(PlayerLanguage(preferred: []) == .english)
    }
}

@Suite("Speeds asked for in a player address")
struct RequestedSpeedsTests {
    @Test func goodEntriesAreKeptInOrderWithoutDuplicates() {
        let parsed = RequestedSpeeds(parsing: " 2, 0.5 ,1,2")
        #expect(parsed.rates == [2, 0.5, 1])
        #expect(parsed.ignored.isEmpty)
        #expect(parsed.warning(in: .english) == nil)
    }

    @Test func emptyTextAsksForNoMenu() {
        #expect(RequestedSpeeds(parsing: "").rates == [])
        #expect(RequestedSpeeds(parsing: " , ").rates == [])
    }

    @Test func badEntriesAreLeftOutAndNamed() {
        let parsed = RequestedSpeeds(parsing: "0.5,abc,,-1,0,17,nan,inf,2")
        #expect(parsed.rates == [0.5, 1, 2])
        #expect(parsed.ignored == ["abc", "-1", "0", "17", "nan", "inf"])
        let warning = parsed.warning(in: .english) ?? ""
        #expect(warning.hasPrefix("Ignored the playback speeds “abc”, “-1”"))
        #expect(warning.hasSuffix("a speed is a number above 0 and at most 16."))
        #expect(parsed.warning(in: .japanese)?.contains("「abc」、「-1」") == true)
    }

    @Test("A list without normal speed offers it too, so the viewer can go back to 1×")
    func normalSpeedIsAlwaysOffered() {
        #expect(RequestedSpeeds(parsing: "0.75,abc").rates == [0.75, 1])
        #expect(RequestedSpeeds(parsing: "2,3").rates == [1, 2, 3])
        #expect(RequestedSpeeds(parsing: "1.5, 0.5").rates == [1, 1.5, 0.5])
        #expect(RequestedSpeeds(parsing: "2,1").rates == [2, 1])
        let full = RequestedSpeeds(parsing: (1...16).map { String(Double($0) / 100) }.joined(separator: ","))
        #expect(full.rates?.count == PlaybackSpeed.maximumCount)
        #expect(full.rates?.last == 1)
        #expect(full.dropped)
    }

    @Test func onlyBadEntriesKeepTheUsualList() {
        let parsed = RequestedSpeeds(parsing: "fast")
        #expect(parsed.rates == nil)
        #expect(parsed.warning(in: .english) == "Ignored the playback speed “fast” in the address: a speed is a number above 0 and at most 16.")
    }

    @Test("An address with thousands of speeds keeps the first 16 and names only a few ignored ones")
    func aLongListKeepsTheFirstSixteen() {
        let text = (1...5_000).map { $0 % 2 == 0 ? "bad\($0)" : String(Double($0) / 1_000) }.joined(separator: ",")
        let parsed = RequestedSpeeds(parsing: text)
        #expect(parsed.rates?.count == PlaybackSpeed.maximumCount)
        #expect(parsed.dropped)
        #expect(parsed.ignored.count <= 8)
        #expect(parsed.warning(in: .english)?.contains("Kept the first 16 speeds") == true)
    }

    @Test("A session offers at most 16 speeds, whoever sets them")
    func aSessionKeepsAtMostSixteenSpeeds() {
        var session = PlaybackSession(id: "s", assetID: "a", metadata: DisplayMetadata(title: "Clip"))
        session.setSpeeds((1...200_000).map { PlaybackSpeed(rate: Double($0) / 12_500, language: .english) })
        #expect(session.speeds.count == PlaybackSpeed.maximumCount)
        #expect(session.speeds.map { $0.rate } == (1...16).map { Double($0) / 12_500 })
    }

    @Test func offerableRates() {
        #expect(PlaybackSpeed.isOfferable(16))
        #expect(PlaybackSpeed.isOfferable(0.1))
        #expect(!PlaybackSpeed.isOfferable(0))
        #expect(!PlaybackSpeed.isOfferable(16.01))
        #expect(!PlaybackSpeed.isOfferable(.nan))
    }
}
