import Foundation

/// Writes a `MutableComposition` to an MP4 file, like `AVAssetExportSession`.
///
/// When every segment of a track shares the same codec configuration and every video cut
/// falls on a keyframe, packets are copied as they are (fast, lossless). Otherwise the
/// composition is re-encoded: H.264 video at the size `VideoComposition(propertiesOf:)`
/// derives, AAC stereo audio at 48 kHz, with blank picture and silence for empty segments.
/// Display rotation survives either way: a stream copy keeps the source's display matrix,
/// and a re-encode turns the pictures upright. Progress is reported from 0 to 1 while the file is written.
public struct CompositionExporter: Sendable {
    public enum Method: String, Sendable {
        case streamCopy, reencode
    }

    /// What an export did.
    public struct Outcome: Sendable {
        public var method: Method
        /// Why the composition had to be re-encoded (empty for stream copies).
        public var reasons: [String]
        public var path: String
    }

    public let composition: MutableComposition
    /// Volumes per audio track (fades, a music bed under a voice); nil plays every track as
    /// recorded. Changing a volume means re-encoding.
    public var audioMix: AudioMix?
    public var pool: MediaThreadPool = .shared

    public init(composition: MutableComposition) {
        self.composition = composition
    }

    /// Decides between stream copy and re-encoding, with the reasons against copying.
    public func plan() async throws -> (method: Method, reasons: [String]) {
        var reasons: [String] = []
        for track in composition.tracks {
            let filled = track.segments.filter { !$0.isEmpty }
            if filled.count != track.segments.count {
                reasons.append("\(track.mediaType.rawValue) track \(track.id) has empty segments")
            }
            if Set(filled.compactMap { $0.sourceTrack?.codecSignature }).count > 1 {
                reasons.append("\(track.mediaType.rawValue) track \(track.id) joins different codec configurations")
            }
            if track.mediaType == .video, Set(filled.compactMap { $0.sourceTrack?.displayRotation }).count > 1 {
                // One output track has one display matrix.
                reasons.append("video track \(track.id) joins sources with different display rotations")
            }
            if track.mediaType == .video {
                let segments = filled
                let offKeyframe = try await pool.run { flag in
                    try segments.compactMap { try KeyframeCheck.problem(with: $0, flag: flag) }
                }
                reasons.append(contentsOf: offKeyframe)
            }
        }
        if audioMix?.changesVolume == true {
            reasons.append("the audio mix changes track volumes")
        }
        return (reasons.isEmpty ? .streamCopy : .reencode, reasons)
    }

    /// Exports to `path`; `forceReencode` skips the stream-copy path.
    public func export(
        to path: String, forceReencode: Bool = false,
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws -> Outcome {
        guard !composition.tracks.isEmpty, composition.duration > .zero else {
            throw MediaError(.invalidComposition, url: path, message: "the composition is empty")
        }
        var (method, reasons) = try await plan()
        if forceReencode && method == .streamCopy {
            method = .reencode
            reasons = ["re-encoding was requested"]
        }
        let composition = self.composition
        switch method {
        case .streamCopy:
            try await pool.run { flag in
                try StreamCopyExport(composition: composition, path: path, flag: flag, progress: progress).run()
            }
        case .reencode:
            let videoComposition = try await VideoComposition(propertiesOf: composition)
            let audioMix = self.audioMix
            try await pool.run { flag in
                try ReencodeExport(
                    composition: composition, videoComposition: videoComposition, audioMix: audioMix, path: path,
                    flag: flag, progress: progress
                ).run()
            }
        }
        progress(1)
        return Outcome(method: method, reasons: reasons, path: path)
    }
}
