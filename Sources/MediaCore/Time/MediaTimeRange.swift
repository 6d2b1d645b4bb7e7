/// A span of media time given by a start and a duration, like `CMTimeRange`.
public struct MediaTimeRange: Sendable, Hashable, CustomStringConvertible {
    /// Where the range begins.
    public var start: MediaTime
    /// How long it lasts.
    public var duration: MediaTime

    /// A range of `duration` from `start`.
    public init(start: MediaTime, duration: MediaTime) {
        self.start = start
        self.duration = duration
    }

    /// The range from `start` up to, not including, `end`.
    public init(start: MediaTime, end: MediaTime) {
        self.start = start
        self.duration = end - start
    }

    /// The empty range at zero.
    public static let zero = MediaTimeRange(start: .zero, duration: .zero)

    /// The first time after the range (`start + duration`).
    public var end: MediaTime { start + duration }
    /// Whether the range lasts no time.
    public var isEmpty: Bool { duration == .zero }
    /// Whether the start is numeric and the duration valid and not negative.
    public var isValid: Bool { start.isNumeric && duration.isValid && !(duration < .zero) }

    /// Whether `time` lies in `[start, end)`.
    public func contains(_ time: MediaTime) -> Bool {
        !(time < start) && time < end
    }

    /// Whether `other` lies entirely inside this range.
    public func contains(_ other: MediaTimeRange) -> Bool {
        !(other.start < start) && !(end < other.end)
    }

    /// The overlap of two ranges; `nil` when they do not overlap.
    public func intersection(_ other: MediaTimeRange) -> MediaTimeRange? {
        let lower = MediaTime.maximum(start, other.start)
        let upper = MediaTime.minimum(end, other.end)
        guard lower < upper else { return nil }
        return MediaTimeRange(start: lower, end: upper)
    }

    /// `[start s, end s)`.
    public var description: String { "[\(start.seconds)s, \(end.seconds)s)" }
}
