import CFFmpeg

/// Finds, for a sequence of ascending time windows, the frame to show for each one on one
/// open demuxer and decoder. Lives on one pool thread.
///
/// For each window it prefers an indexed keyframe inside the window nearest the requested
/// time and decodes that one packet alone. Otherwise it decodes forward from the keyframe
/// before the window — continuing from where the previous request left the decoder when no
/// keyframe lies in between — and takes the first frame inside the window, or, when the
/// window falls between two frames, the frame on screen at the window's start.
final class FrameSampler {
    private(set) var reader: FrameReader
    /// Opens the source afresh, for demuxers that cannot seek back once they reached the end.
    private let reopen: (() throws -> FrameReader)?
    private var reopened = false
    /// The last decoded frame, still valid for the next request.
    private var previous: UnsafeMutablePointer<AVFrame>?
    private var previousValid = false
    /// A decoded frame not yet looked at (it went past the last window).
    private var pending: UnsafeMutablePointer<AVFrame>?
    private var pendingValid = false
    /// Whether the decoder continues from `previous` (false after a keyframe-only decode).
    private var positioned = false
    private var scratch: UnsafeMutablePointer<AVFrame>?
    /// Presentation time minus index time of the last keyframe decoded alone.
    private var keyframeShift: Int64 = 0

    /// Counters for tests and benchmarks.
    private(set) var seeks = 0
    private(set) var decodedFrames = 0
    private(set) var keyframeDecodes = 0

    init(reader: FrameReader, reopen: (() throws -> FrameReader)? = nil) {
        self.reader = reader
        self.reopen = reopen
        previous = av_frame_alloc()
        pending = av_frame_alloc()
        scratch = av_frame_alloc()
    }

    deinit {
        av_frame_free(&previous)
        av_frame_free(&pending)
        av_frame_free(&scratch)
    }

    /// The frame to show for the window `lower...upper` around `target` (stream units). The
    /// returned frame stays valid until the next call.
    func frame(target: Int64, lower: Int64, upper: Int64, boundedAfter: Bool) throws -> UnsafeMutablePointer<AVFrame> {
        let frameDuration = reader.nominalFrameDuration
        // The frame already held may answer (repeated or very close requests).
        if previousValid {
            let pts = FrameReader.timestamp(of: previous!)
            if pts >= lower && pts <= upper && (!pendingValid || FrameReader.timestamp(of: pending!) > target || pts == target) {
                return previous!
            }
        }
        // A keyframe inside the window: decode that packet alone. Index timestamps may be
        // decode times (MP4); `keyframeShift` learns how far presentation times lie after them.
        if let indexed = reader.keyframe(nearest: target - keyframeShift, in: lower - keyframeShift, upper - keyframeShift),
            lower < upper
        {
            let keyframe = indexed + keyframeShift
            let alreadyThere =
                positioned && previousValid && FrameReader.timestamp(of: previous!) <= keyframe
                && keyframe - FrameReader.timestamp(of: previous!) <= frameDuration
            if !alreadyThere {
                try reader.seek(to: reader.seekPoint(forKeyframe: indexed))
                seeks += 1
                positioned = false
                pendingValid = false
                if try reader.decodeKeyframe(into: scratch!) {
                    keyframeDecodes += 1
                    decodedFrames += 1
                    let pts = FrameReader.timestamp(of: scratch!)
                    if pts != LibAV.noPTS { keyframeShift = pts - indexed }
                    if pts >= lower && pts <= upper {
                        store(scratch!)
                        return previous!
                    }
                }
            }
        }
        return try decodeForward(target: target, lower: lower, upper: upper, boundedAfter: boundedAfter)
    }

    private func decodeForward(target: Int64, lower: Int64, upper: Int64, boundedAfter: Bool) throws -> UnsafeMutablePointer<AVFrame> {
        let exact = lower == upper
        var seekPoint = boundedAfter ? upper : target
        if exact { seekPoint = target }
        var mustSeek = true
        if positioned, previousValid {
            let position = pendingValid ? FrameReader.timestamp(of: pending!) : FrameReader.timestamp(of: previous!)
            if position <= seekPoint {
                if let keyframe = reader.keyframe(atOrBefore: seekPoint) {
                    mustSeek = keyframe > position
                } else {
                    mustSeek = seekPoint - position > 60 * reader.nominalFrameDuration
                }
            }
        }
        // Where to seek, in order, when a seek lands after the window or finds nothing: further
        // back, then the very start and just before it (HLS seeks forward to a keyframe by
        // decode time, so the first keyframe is only reached from slightly before the start).
        let frame = reader.nominalFrameDuration
        var candidates = [seekPoint] + [150, 600, 2400].map { max(reader.startOffset, seekPoint - $0 * frame) }
        candidates += (0...12).map { reader.startOffset - Int64($0) * max(1, frame / 2) }
        var seen = Set<Int64>()
        candidates = candidates.filter { $0 <= seekPoint && seen.insert($0).inserted }
        var candidateIndex = 0
        var lastError: (any Error)?
        while true {
            if mustSeek {
                if candidateIndex >= candidates.count, !reopened, let reopen {
                    // Last resort: decode from the beginning of a freshly opened source.
                    reopened = true
                    reader = try reopen()
                    previousValid = false
                    pendingValid = false
                    positioned = true
                    mustSeek = false
                    continue
                }
                guard candidateIndex < candidates.count else {
                    if let lastError, !(lastError is MediaError && (lastError as! MediaError).kind == .seek) { throw lastError }
                    throw MediaError(.noFrame, url: reader.input.name, message: "no frame in the requested window")
                }
                let point = candidates[candidateIndex]
                candidateIndex += 1
                previousValid = false
                pendingValid = false
                positioned = false
                do {
                    try reader.seek(to: point)
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    lastError = error
                    continue
                }
                seeks += 1
                positioned = true
            }
            var firstAfterSeek = mustSeek
            while true {
                let frame: UnsafeMutablePointer<AVFrame>
                if pendingValid {
                    frame = pending!
                    pendingValid = false
                    av_frame_move_ref(scratch!, frame)
                } else {
                    guard try reader.decodeNext(into: scratch!) else { break }
                    decodedFrames += 1
                }
                let pts = FrameReader.timestamp(of: scratch!)
                if pts == LibAV.noPTS { continue }
                if pts < lower {
                    store(scratch!)
                    firstAfterSeek = false
                    continue
                }
                if pts <= upper && !(exact && pts > target) {
                    store(scratch!)
                    return previous!
                }
                // Past the window: the frame on screen at its start is the one before.
                if previousValid && !firstAfterSeek {
                    av_frame_unref(pending!)
                    av_frame_move_ref(pending!, scratch!)
                    pendingValid = true
                    return previous!
                }
                break
            }
            // The stream ended, or the seek landed after the window.
            if previousValid {
                let pts = FrameReader.timestamp(of: previous!)
                let duration = previous!.pointee.pkt_duration > 0 ? previous!.pointee.pkt_duration : reader.nominalFrameDuration
                if pts <= upper && pts + duration > lower { return previous! }
                if pts < lower {
                    throw MediaError(.noFrame, url: reader.input.name, message: "no frame in the requested window (the video ends before it)")
                }
            }
            mustSeek = true
        }
    }

    private func store(_ frame: UnsafeMutablePointer<AVFrame>) {
        av_frame_unref(previous!)
        av_frame_move_ref(previous!, frame)
        previousValid = true
    }
}
