import PropertyBased
import Testing
@testable import Playback

/// Random intents and renderer reports, with the numbers a hostile client can send (any Int,
/// huge, negative, infinite and NaN times), never trap a session and never break its rules.
@Suite("Playback session: random intents and reports")
struct PlaybackSessionPropertyTests {
    static let specialNumbers: [Double] = [0, 8, 8.0001, 7.999, 60, 60.1, -0.0, .infinity, -.infinity, .nan,
                                           .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e308]
    static let specialIntegers = [Int.max, Int.min, Int.max - 1, Int.min + 1]

    /// Numbers a client could send: times from -100 to 200 s in 0.05 s steps, and one in ten
    /// a nasty one (infinite, NaN, huge, just around the break at 8 s and the end at 60 s).
    static let numbers = Gen.int(in: -2000...4000).map { n -> Double in
        n.isMultiple(of: 10) ? specialNumbers[abs(n / 10) % specialNumbers.count] : Double(n) / 20
    }
    static let integers = Gen.int(in: -50...50).map { n -> Int in
        n.isMultiple(of: 10) ? specialIntegers[abs(n / 10) % specialIntegers.count] : n % 6
    }

    /// Applies step `kind` with the given numbers; returns nothing, only the session changes.
    static func apply(_ kind: Int, _ number: Double, _ integer: Int, to session: inout PlaybackSession) {
        switch kind {
        case 0: _ = session.handle(.play)
        case 1: _ = session.handle(.pause)
        case 2: _ = session.handle(.togglePlayPause)
        case 3: _ = session.handle(.skip(by: number))
        case 4: _ = session.handle(.seek(to: number))
        case 5: _ = session.handle(.seekToFraction(number))
        case 6: _ = session.handle(.selectSpeed(rate: number))
        case 7: _ = session.handle(.stepSpeed(by: integer))
        case 8: _ = session.handle(.selectAudio(id: integer.isMultiple(of: 2) ? "en" : "xx"))
        case 9: _ = session.handle(.selectSubtitles(id: integer.isMultiple(of: 3) ? nil : "en"))
        case 10: _ = session.handle(.toggleCaptions)
        case 11: _ = session.handle(.ready(duration: number))
        case 12, 13, 14: _ = session.handle(.time(number))
        case 15: _ = session.handle(.playing)
        case 16: _ = session.handle(.stalled)
        case 17: _ = session.handle(.ended)
        case 18: session.setSpeeds(integer.isMultiple(of: 2) ? [] : [PlaybackSpeed(rate: abs(number) , language: .english)])
        default: _ = session.handle(.failed(message: "decoder error"))
        }
    }

    static func makeSession() -> PlaybackSession {
        PlaybackSession(
            id: "p", assetID: "a", metadata: DisplayMetadata(title: "Clip"),
            audioOptions: [MediaOption(id: "en", kind: .audio, name: "English", language: "en", isDefault: true)],
            subtitleOptions: [MediaOption(id: "en", kind: .subtitles, name: "English", language: "en")],
            interstitials: [
                InterstitialEvent(id: "pre", time: 0, url: "/ad.json", duration: 5, cue: .joinCue),
                InterstitialEvent(id: "mid", time: 8, url: "/ad.json", duration: 5,
                                  restrictions: [.constrainsSeekingForwardInPrimaryContent, .requiresPlaybackAtPreferredRateForAdvancement]),
                InterstitialEvent(id: "late", time: 30, url: "/ad.json", duration: 5, resumptionOffset: 2),
                InterstitialEvent(id: "post", time: 0, url: "/ad.json", duration: 5, cue: .leaveCue),
            ])
    }

    @Test func randomStepsKeepEveryRule() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...19).array(of: 1...80), Self.numbers.array(of: 1...80),
                            Self.integers.array(of: 1...80)) { kinds, numbers, integers in
            var session = Self.makeSession()
            for (index, kind) in kinds.enumerated() {
                Self.apply(kind, numbers[index % numbers.count], integers[index % integers.count], to: &session)
                let broken = session.invariantViolations
                #expect(broken.isEmpty, "after step \(index) (kind \(kind)): \(broken)")
                if !broken.isEmpty { break }
            }
        }
    }

    @Test func aFailedSessionStaysFailed() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...18).array(of: 1...40), Self.numbers.array(of: 1...40)) { kinds, numbers in
            var session = Self.makeSession()
            _ = session.handle(.ready(duration: 60))
            _ = session.handle(.failed(message: "decoder error"))
            for (index, kind) in kinds.enumerated() where kind != 18 {
                Self.apply(kind, numbers[index % numbers.count], 1, to: &session)
                #expect(session.status == .failed)
            }
        }
    }
}
