/// A span of media time given by a start and a duration, like `CMTimeRange`.
public struct MediaTimeRange: Sendable, Hashable, CustomStringConvertible {
    public var start: MediaTime
    public var duration: MediaTime

    public init(start: MediaTime, duration: MediaTime) {
        self.start = start
        self.duration = duration
    }

    public init(start: MediaTime, end: MediaTime) {
        self.start = start
        self.duration = end - start
    }

    public static let zero = MediaTimeRange(start: .zero, duration: .zero)

    public var end: MediaTime { start + duration }
    public var isEmpty: Bool { duration == .zero }
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

    public var description: String { "[\(start.seconds)s, \(end.seconds)s)" }
}
