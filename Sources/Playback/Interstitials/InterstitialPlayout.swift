/// A break in progress: the event playing, its clock, and the rest of the break.
///
/// A break is every event scheduled at one time (or every pre-roll, or every post-roll),
/// played in order. The primary resumes at `resumeAt` when the last one ends: where it
/// stopped plus the sum of the events' resumption offsets, or a seek's target when a
/// jump-restricted break interrupted the seek.
public struct InterstitialPlayout: Sendable, Hashable {
    public var event: InterstitialEvent
    /// Seconds into `event`.
    public var clock: Double
    /// The primary time playback resumes at after the break.
    public var resumeAt: Double
    /// The primary time where the primary stopped for the break.
    public var stoppedAt: Double
    /// The events still to play in this break after `event`.
    public var upNext: [InterstitialEvent]
    /// `event`'s place in the break, from 1, and how many events the break has ("Ad 1 of 2").
    public var position: Int
    public var count: Int

    public init(
        event: InterstitialEvent, clock: Double = 0, resumeAt: Double, stoppedAt: Double,
        upNext: [InterstitialEvent] = [], position: Int = 1, count: Int = 1
    ) {
        self.event = event
        self.clock = clock
        self.resumeAt = resumeAt
        self.stoppedAt = stoppedAt
        self.upNext = upNext
        self.position = position
        self.count = count
    }

    /// The same break moved on to its next event, if it has one.
    func advanced() -> InterstitialPlayout? {
        guard let next = upNext.first else { return nil }
        return InterstitialPlayout(
            event: next, resumeAt: resumeAt, stoppedAt: stoppedAt,
            upNext: Array(upNext.dropFirst()), position: position + 1, count: count)
    }
}
