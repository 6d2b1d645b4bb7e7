/// A track of a `MutableComposition`: segments of one media type laid end to end.
public struct CompositionTrack: Sendable, Identifiable {
    public let id: Int
    public let mediaType: AssetTrack.MediaType
    /// The segments in time order; together they cover `[0, end)` without gaps or overlaps.
    public internal(set) var segments: [CompositionTrackSegment] = []

    /// Where the track's last segment ends.
    public var end: MediaTime { segments.last?.targetRange.end ?? .zero }

    /// Makes room for `duration` at `time` (splitting a segment there), pushing later media back,
    /// and returns the index where new segments go.
    mutating func openGap(at time: MediaTime, duration: MediaTime) -> Int {
        if time > end, time - end > .zero {
            segments.append(.empty(MediaTimeRange(start: end, end: time)))
        }
        var result: [CompositionTrackSegment] = []
        var insertion = 0
        for segment in segments {
            if segment.targetRange.end <= time {
                result.append(segment)
                insertion = result.count
            } else if segment.targetRange.start >= time {
                result.append(segment.shifted(by: duration))
            } else {
                let before = segment.clipped(to: MediaTimeRange(start: segment.targetRange.start, end: time))!
                let after = segment.clipped(to: MediaTimeRange(start: time, end: segment.targetRange.end))!
                result.append(before)
                insertion = result.count
                result.append(after.shifted(by: duration))
            }
        }
        segments = result
        return insertion
    }

    /// Removes `range`, pulling later media forward.
    mutating func remove(_ range: MediaTimeRange) {
        var result: [CompositionTrackSegment] = []
        for segment in segments {
            if let before = segment.clipped(to: MediaTimeRange(start: segment.targetRange.start, end: MediaTime.minimum(segment.targetRange.end, range.start))),
                segment.targetRange.start < range.start
            {
                result.append(before)
            }
            if segment.targetRange.end > range.end,
                let after = segment.clipped(to: MediaTimeRange(start: MediaTime.maximum(segment.targetRange.start, range.end), end: segment.targetRange.end))
            {
                result.append(after.shifted(by: -range.duration))
            }
        }
        segments = result
        trimTrailingEmpty()
    }

    mutating func trimTrailingEmpty() {
        while segments.last?.isEmpty == true { segments.removeLast() }
    }
}
