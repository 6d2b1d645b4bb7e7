/// An edit of one or more assets — cuts, joins and gaps — held in memory, like
/// `AVMutableComposition`.
///
/// The composition is a value: its tracks and segments can be inspected synchronously at any
/// time. Only inserting media from an asset is asynchronous, because the asset's tracks may
/// have to be loaded first. Each video and audio track of an inserted asset goes into the
/// composition track of the same media type (one video, one audio track by default).
public struct MutableComposition: Sendable {
    public private(set) var tracks: [CompositionTrack] = []

    public init() {}

    /// The composition's length: where its longest track ends.
    public var duration: MediaTime { tracks.map(\.end).max() ?? .zero }

    /// Inserts `range` of `asset` (its first video and first audio track) at `time`, pushing
    /// later media back. Loads the asset's tracks when they are not loaded yet.
    public mutating func insertTimeRange(_ range: MediaTimeRange, of asset: Asset, at time: MediaTime) async throws {
        guard range.isValid, !range.isEmpty, time.isNumeric, time >= .zero else {
            throw MediaError(.invalidComposition, url: asset.source.displayName, message: "invalid range \(range) or time \(time)")
        }
        let (sourceTracks, assetDuration) = try await asset.load(.tracks, .duration)
        let candidates = [AssetTrack.MediaType.video, .audio].compactMap { type in
            sourceTracks.first { $0.mediaType == type && !$0.isAttachedPicture }
        }
        guard !candidates.isEmpty else {
            throw MediaError(.invalidComposition, url: asset.source.displayName, message: "the asset has no audio or video track")
        }
        if assetDuration.isNumeric, range.end > assetDuration + MediaTime(value: 1, timescale: 10) {
            throw MediaError(.invalidComposition, url: asset.source.displayName,
                             message: "range \(range) ends after the asset (\(assetDuration.seconds) s)")
        }
        let wasEmpty = tracks.isEmpty
        for source in candidates {
            let index = trackIndex(for: source.mediaType)
            let position = tracks[index].openGap(at: time, duration: range.duration)
            tracks[index].segments.insert(CompositionTrackSegment(
                asset: asset, sourceTrack: source, sourceRange: range,
                targetRange: MediaTimeRange(start: time, duration: range.duration)), at: position)
        }
        // Tracks the asset had nothing for get an empty stretch so all stay in step.
        if !wasEmpty {
            for index in tracks.indices where !candidates.contains(where: { $0.mediaType == tracks[index].mediaType }) {
                if time < tracks[index].end {
                    let position = tracks[index].openGap(at: time, duration: range.duration)
                    tracks[index].segments.insert(.empty(MediaTimeRange(start: time, duration: range.duration)), at: position)
                }
            }
        }
    }

    /// Inserts silence and blank picture for `range.duration` at `range.start` in every track.
    public mutating func insertEmptyTimeRange(_ range: MediaTimeRange) {
        guard range.isValid, !range.isEmpty else { return }
        for index in tracks.indices {
            let position = tracks[index].openGap(at: range.start, duration: range.duration)
            tracks[index].segments.insert(.empty(range), at: position)
        }
    }

    /// Removes `range` from every track, pulling later media forward.
    public mutating func removeTimeRange(_ range: MediaTimeRange) {
        guard range.isValid, !range.isEmpty else { return }
        for index in tracks.indices { tracks[index].remove(range) }
        tracks.removeAll { $0.segments.isEmpty }
    }

    private mutating func trackIndex(for type: AssetTrack.MediaType) -> Int {
        if let index = tracks.firstIndex(where: { $0.mediaType == type }) { return index }
        tracks.append(CompositionTrack(id: (tracks.map(\.id).max() ?? 0) + 1, mediaType: type))
        return tracks.count - 1
    }
}
