/// An edit of one or more assets — cuts, joins and gaps — held in memory, like
/// `AVMutableComposition`.
///
/// The composition is a value: its tracks and segments can be inspected synchronously at any
/// time. Only inserting media from an asset is asynchronous, because the asset's tracks may
/// have to be loaded first. `insertTimeRange(_:of:at:)` puts an asset's first video and first
/// audio track into the composition's first track of each type; `addMutableTrack` and
/// `insertTimeRange(_:of:in:at:intoTrack:)` build further tracks, which export mixes (audio)
/// or layers (video, earlier tracks on top).
public struct MutableComposition: Sendable {
    public private(set) var tracks: [CompositionTrack] = []

    public init() {}

    /// The composition's length: where its longest track ends.
    public var duration: MediaTime { tracks.map(\.end).max() ?? .zero }

    /// Inserts `range` of `asset` (its first video and first audio track) at `time`, pushing
    /// later media back. Loads the asset's tracks when they are not loaded yet.
    public mutating func insertTimeRange(_ range: MediaTimeRange, of asset: MediaAsset, at time: MediaTime) async throws {
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
            throw MediaError(
                .invalidComposition, url: asset.source.displayName,
                message: "range \(range) ends after the asset (\(assetDuration.seconds) s)")
        }
        let wasEmpty = tracks.isEmpty
        for source in candidates {
            let index = trackIndex(for: source.mediaType)
            let position = tracks[index].openGap(at: time, duration: range.duration)
            tracks[index].segments.insert(
                CompositionTrackSegment(
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

    /// Adds an empty track of `mediaType` (video or audio) and returns its ID, like
    /// `addMutableTrack(withMediaType:preferredTrackID:)`: a second audio track is mixed with
    /// the first on export (music under a voice), and a video track added earlier is the one
    /// shown wherever it has media.
    @discardableResult
    public mutating func addMutableTrack(withMediaType mediaType: AssetTrack.MediaType) throws -> Int {
        guard mediaType == .video || mediaType == .audio else {
            throw MediaError(.invalidComposition, url: "composition", message: "only video and audio tracks can be added, not \(mediaType.rawValue)")
        }
        let id = (tracks.map(\.id).max() ?? 0) + 1
        tracks.append(CompositionTrack(id: id, mediaType: mediaType))
        return id
    }

    /// Inserts `range` of one source track of `asset` at `time` into the composition track
    /// `trackID` only, pushing that track's later media back — like
    /// `AVMutableCompositionTrack.insertTimeRange(_:of:at:)`. Other tracks are not moved.
    public mutating func insertTimeRange(
        _ range: MediaTimeRange, of sourceTrack: AssetTrack, in asset: MediaAsset,
        at time: MediaTime, intoTrack trackID: Int
    ) async throws {
        guard range.isValid, !range.isEmpty, time.isNumeric, time >= .zero else {
            throw MediaError(.invalidComposition, url: asset.source.displayName, message: "invalid range \(range) or time \(time)")
        }
        guard let index = tracks.firstIndex(where: { $0.id == trackID }) else {
            throw MediaError(.invalidComposition, url: asset.source.displayName, message: "the composition has no track \(trackID)")
        }
        guard tracks[index].mediaType == sourceTrack.mediaType else {
            throw MediaError(
                .invalidComposition, url: asset.source.displayName,
                message: "a \(sourceTrack.mediaType.rawValue) track cannot go into \(tracks[index].mediaType.rawValue) track \(trackID)")
        }
        let (sourceTracks, assetDuration) = try await asset.load(.tracks, .duration)
        guard let loaded = sourceTracks.first(where: { $0.id == sourceTrack.id && $0.mediaType == sourceTrack.mediaType }) else {
            throw MediaError(.invalidComposition, url: asset.source.displayName, message: "the asset has no track \(sourceTrack.id)")
        }
        if assetDuration.isNumeric, range.end > assetDuration + MediaTime(value: 1, timescale: 10) {
            throw MediaError(
                .invalidComposition, url: asset.source.displayName,
                message: "range \(range) ends after the asset (\(assetDuration.seconds) s)")
        }
        let position = tracks[index].openGap(at: time, duration: range.duration)
        tracks[index].segments.insert(
            CompositionTrackSegment(
                asset: asset, sourceTrack: loaded, sourceRange: range,
                targetRange: MediaTimeRange(start: time, duration: range.duration)), at: position)
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
