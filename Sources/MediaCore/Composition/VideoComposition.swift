/// How a composition's video is rendered: output size, frame rate and which track shows when,
/// like `AVVideoComposition`.
///
/// `init(propertiesOf:)` derives the properties from the composition's sources (the largest
/// display size, the highest frame rate, and instructions showing, at each moment, the first
/// video track that has media then — the top layer);
/// `isValid(for:timeRange:)` checks a video composition against a composition and says why
/// it is not valid.
public struct VideoComposition: Sendable {
    /// Which composition track is shown during a time range.
    public struct Instruction: Sendable, Hashable {
        public var timeRange: MediaTimeRange
        public var trackID: Int

        public init(timeRange: MediaTimeRange, trackID: Int) {
            self.timeRange = timeRange
            self.trackID = trackID
        }
    }

    /// The answer of `isValid(for:timeRange:)`.
    public struct Validation: Sendable {
        public var problems: [String]
        public var isValid: Bool { problems.isEmpty }
    }

    public var renderSize: PixelSize
    public var frameDuration: MediaTime
    public var instructions: [Instruction]

    public init(renderSize: PixelSize, frameDuration: MediaTime, instructions: [Instruction]) {
        self.renderSize = renderSize
        self.frameDuration = frameDuration
        self.instructions = instructions
    }

    /// Derives render size, frame duration and instructions from `composition`'s video
    /// segments, loading each source asset's tracks to confirm they are still there.
    public init(propertiesOf composition: MutableComposition) async throws {
        var width = 0
        var height = 0
        var rate = 0.0
        let videoTracks = composition.tracks.filter { $0.mediaType == .video }
        for track in videoTracks {
            for segment in track.segments {
                guard let asset = segment.asset, let source = segment.sourceTrack else { continue }
                let loaded = try await asset.load(.tracks)
                let current = loaded.first { $0.id == source.id } ?? source
                if let size = current.presentationSize {
                    width = max(width, size.width)
                    height = max(height, size.height)
                }
                rate = max(rate, current.nominalFrameRate ?? 0)
            }
        }
        renderSize = PixelSize(width: width + width % 2, height: height + height % 2)
        frameDuration = rate > 0 ? MediaTime(value: 1000, timescale: Int32((rate * 1000).rounded())) : MediaTime(value: 1, timescale: 30)
        instructions = Self.topmost(videoTracks)
    }

    /// One instruction per stretch of time, naming the first video track (in composition
    /// order, the top layer) that has media there — the first track when none has.
    static func topmost(_ tracks: [CompositionTrack]) -> [Instruction] {
        guard let first = tracks.first else { return [] }
        let end = tracks.map(\.end).max() ?? .zero
        let edges = Set(tracks.flatMap { $0.segments.flatMap { [$0.targetRange.start, $0.targetRange.end] } } + [.zero, end])
            .filter { $0 <= end }.sorted()
        var instructions: [Instruction] = []
        for (start, stop) in zip(edges, edges.dropFirst()) where start < stop {
            let shown =
                tracks.first { track in
                    track.segments.contains { !$0.isEmpty && $0.targetRange.start <= start && start < $0.targetRange.end }
                } ?? first
            if let last = instructions.last, last.trackID == shown.id, last.timeRange.end == start {
                instructions[instructions.count - 1].timeRange = MediaTimeRange(start: last.timeRange.start, end: stop)
            } else {
                instructions.append(Instruction(timeRange: MediaTimeRange(start: start, end: stop), trackID: shown.id))
            }
        }
        return instructions
    }

    /// Whether this video composition can render `timeRange` of `composition`, with the
    /// reasons when it cannot: sizes, frame duration, instruction coverage (gaps, overlaps),
    /// instructions naming missing tracks, and source assets that no longer load.
    public func isValid(for composition: MutableComposition, timeRange: MediaTimeRange) async -> Validation {
        var problems: [String] = []
        if renderSize.width <= 0 || renderSize.height <= 0 { problems.append("render size \(renderSize) is empty") }
        if !frameDuration.isNumeric || frameDuration <= .zero { problems.append("frame duration \(frameDuration) is not positive") }
        if !timeRange.isValid { problems.append("time range \(timeRange) is invalid") }
        if timeRange.end > composition.duration {
            problems.append("time range ends at \(timeRange.end.seconds) s, after the composition (\(composition.duration.seconds) s)")
        }
        let videoTracks = Set(composition.tracks.filter { $0.mediaType == .video }.map(\.id))
        var cursor = timeRange.start
        for instruction in instructions.sorted(by: { $0.timeRange.start < $1.timeRange.start }) {
            if !videoTracks.contains(instruction.trackID) {
                problems.append("instruction at \(instruction.timeRange) names track \(instruction.trackID), which is not a video track of the composition")
            }
            guard instruction.timeRange.end > timeRange.start, instruction.timeRange.start < timeRange.end else { continue }
            if instruction.timeRange.start > cursor {
                problems.append("no instruction covers \(MediaTimeRange(start: cursor, end: instruction.timeRange.start))")
            } else if instruction.timeRange.start < cursor {
                problems.append("instructions overlap at \(instruction.timeRange.start.seconds) s")
            }
            cursor = MediaTime.maximum(cursor, instruction.timeRange.end)
        }
        if cursor < timeRange.end {
            problems.append("no instruction covers \(MediaTimeRange(start: cursor, end: timeRange.end))")
        }
        var checked = Set<ObjectIdentifier>()
        for track in composition.tracks {
            for segment in track.segments {
                guard let asset = segment.asset, checked.insert(ObjectIdentifier(asset)).inserted else { continue }
                do {
                    _ = try await asset.load(.tracks)
                } catch {
                    problems.append("source \(asset.source.displayName) does not load: \(error)")
                }
            }
        }
        return Validation(problems: problems)
    }
}
