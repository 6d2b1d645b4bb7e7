/// One piece of a composition track: a time range of a source track placed at a time in the
/// composition, or an empty stretch — like `AVCompositionTrackSegment`.
public struct CompositionTrackSegment: Sendable {
    /// The asset the media comes from; `nil` for an empty segment.
    public var asset: MediaAsset?
    /// The source track, as loaded from `asset`; `nil` for an empty segment.
    public var sourceTrack: AssetTrack?
    /// Where in the source the media comes from (start meaningless for empty segments).
    public var sourceRange: MediaTimeRange
    /// Where in the composition it plays.
    public var targetRange: MediaTimeRange

    public var isEmpty: Bool { asset == nil }

    static func empty(_ targetRange: MediaTimeRange) -> CompositionTrackSegment {
        CompositionTrackSegment(
            asset: nil, sourceTrack: nil,
            sourceRange: MediaTimeRange(start: .zero, duration: targetRange.duration),
            targetRange: targetRange)
    }

    /// The part of this segment inside `range` of the composition, with its source range cut alike.
    func clipped(to range: MediaTimeRange) -> CompositionTrackSegment? {
        guard let overlap = targetRange.intersection(range) else { return nil }
        var copy = self
        copy.sourceRange = MediaTimeRange(
            start: sourceRange.start + (overlap.start - targetRange.start),
            duration: overlap.duration)
        copy.targetRange = overlap
        return copy
    }

    func shifted(by offset: MediaTime) -> CompositionTrackSegment {
        var copy = self
        copy.targetRange.start = targetRange.start + offset
        return copy
    }
}
