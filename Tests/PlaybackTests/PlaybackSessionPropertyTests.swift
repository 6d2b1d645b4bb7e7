import PropertyBased
import Testing

@testable import Playback

/// Random intents and renderer reports, with the numbers a hostile client can send (any Int,
/// huge, negative, infinite and NaN times), never trap a session and never break its rules.
@Suite("Playback session: random intents and reports")
struct PlaybackSessionPropertyTests {
    static let specialNumbers: [Double] = [
        0, 8, 8.0001, 7.999, 60, 60.1, -0.0, .infinity, -.infinity, .nan,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e308,
    ]
    static let specialIntegers = [Int.max, Int.min, Int.max - 1, Int.min + 1]

    /// Numbers a client could send: times from -100 to 200 s in 0.05 s steps, and one in ten
    /// a nasty one (infinite, NaN, huge, just around the break at 8 s and the end at 60 s).
    static let numbers = Gen.int(in: -2000...4000).map { n -> Double in
        n.isMultiple(of: 10) ? specialNumbers[abs(n / 10) % specialNumbers.count] : Double(n) / 20
    }
    static let integers = Gen.int(in: -50...50).map { n -> Int in
        n.isMultiple(of: 10) ? specialIntegers[abs(n / 10) % specialIntegers.count] : n % 6
    }

    static func apply(_ kind: Int, _ number: Double, _ integer: Int, to session: inout PlaybackSession) {
        PlaybackSessionStep.apply(kind, number, integer, to: &session)
    }

    static func makeSession() -> PlaybackSession { PlaybackSessionStep.makeSession() }

    @Test func randomStepsKeepEveryRule() async {
        await propertyCheck(
            count: 400, input: Gen.int(in: 0...(PlaybackSessionStep.kindCount - 1)).array(of: 1...80), Self.numbers.array(of: 1...80),
            Self.integers.array(of: 1...80)
        ) { kinds, numbers, integers in
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
        await propertyCheck(count: 200, input: Gen.int(in: 0...(PlaybackSessionStep.kindCount - 2)).array(of: 1...40), Self.numbers.array(of: 1...40)) {
            kinds, numbers in
            var session = Self.makeSession()
            _ = session.handle(.ready(duration: 60))
            _ = session.handle(.failed(message: "decoder error"))
            for (index, kind) in kinds.enumerated() where kind != 18 && kind != 19 && kind != 23 {
                Self.apply(kind, numbers[index % numbers.count], 1, to: &session)
                #expect(session.status == .failed)
            }
        }
    }
}
