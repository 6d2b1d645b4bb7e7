import Testing

@testable import MediaCore

@Suite struct MediaTimeTests {
    @Test func equalValuesAcrossTimescalesAreEqualAndHashAlike() {
        let half = MediaTime(value: 1, timescale: 2)
        let alsoHalf = MediaTime(value: 45_000, timescale: 90_000)
        #expect(half == alsoHalf)
        #expect(Set([half, alsoHalf]).count == 1)
        #expect(MediaTime(value: 1, timescale: 3) != MediaTime(value: 333, timescale: 1000))
    }

    @Test func arithmeticIsExactWhenTheCommonTimescaleFits() {
        let third = MediaTime(value: 1, timescale: 3)
        let sum = third + third + third
        #expect(sum == MediaTime(value: 1, timescale: 1))
        let mixed = MediaTime(value: 1001, timescale: 30_000) + MediaTime(value: 1, timescale: 48_000)
        #expect(mixed == MediaTime(value: 1001 * 8 + 5, timescale: 240_000))
        #expect((MediaTime(seconds: 2) - MediaTime(seconds: 3.5)).seconds == -1.5)
        #expect((MediaTime(value: 3, timescale: 10) * 4) == MediaTime(value: 6, timescale: 5))
    }

    @Test func specialValuesFollowTheRules() {
        let five = MediaTime(seconds: 5)
        #expect(five + .positiveInfinity == .positiveInfinity)
        #expect((MediaTime.positiveInfinity + .negativeInfinity).isValid == false)
        #expect((five + .invalid).isValid == false)
        #expect(five + .indefinite == .indefinite)
        #expect(-MediaTime.positiveInfinity == .negativeInfinity)
        #expect(MediaTime(value: 1, timescale: 0).isValid == false)
        #expect(MediaTime(seconds: .nan).isValid == false)
        #expect(MediaTime.zero.seconds == 0)
        #expect(MediaTime.positiveInfinity.seconds == .infinity)
    }

    @Test func orderingPutsInfinitiesAtTheEnds() {
        let times: [MediaTime] = [.positiveInfinity, MediaTime(seconds: 2), .negativeInfinity, MediaTime(value: 1, timescale: 3), .zero]
        let sorted = times.sorted()
        #expect(sorted == [.negativeInfinity, .zero, MediaTime(value: 1, timescale: 3), MediaTime(seconds: 2), .positiveInfinity])
        #expect(MediaTime(value: -1, timescale: 1_000_000) < .zero)
    }

    @Test func convertScaleRoundsToNearest() {
        #expect(MediaTime(value: 1, timescale: 3).convertScale(1000).value == 333)
        #expect(MediaTime(value: 2, timescale: 3).convertScale(1000).value == 667)
        #expect(MediaTime(value: -2, timescale: 3).convertScale(1000).value == -667)
        #expect(MediaTime(value: Int64.max / 2, timescale: 1).convertScale(1_000_000).isPositiveInfinity)
    }

    @Test func rangesContainAndIntersect() {
        let range = MediaTimeRange(start: MediaTime(seconds: 2), duration: MediaTime(seconds: 3))
        #expect(range.end == MediaTime(seconds: 5))
        #expect(range.contains(MediaTime(seconds: 2)))
        #expect(!range.contains(MediaTime(seconds: 5)))
        let other = MediaTimeRange(start: MediaTime(seconds: 4), end: MediaTime(seconds: 9))
        #expect(range.intersection(other) == MediaTimeRange(start: MediaTime(seconds: 4), end: MediaTime(seconds: 5)))
        #expect(range.intersection(MediaTimeRange(start: MediaTime(seconds: 6), duration: MediaTime(seconds: 1))) == nil)
    }
}
