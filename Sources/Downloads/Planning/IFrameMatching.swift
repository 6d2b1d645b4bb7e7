public import Foundation
public import HLS

/// Which `EXT-X-I-FRAME-STREAM-INF` playlist goes with a downloaded video variant, so that
/// scrubbing and fast-forward work offline as they do online. The multivariant playlist does
/// not link them, so the match is by what both declare: the same video codec family and
/// video range, and a resolution no larger than the variant's (Dolby Vision and HEVC count as
/// one family). Among those, in order: the same resolution; the very same codec family; an
/// I-frame playlist in the variant's own folder (it then usually points
/// into the very segments being downloaded, which costs no extra bytes); the larger
/// resolution; the higher bandwidth; playlist order. Audio-only variants get none.
public enum IFrameMatching {
    /// The I-frame playlist among `candidates` that goes with `variant` by the rules above, or nil
    /// when none fits; `source` is the multivariant playlist's URL, for comparing folders.
    public static func best(for variant: VariantStream, among candidates: [IFrameVariantStream], source: URL) -> IFrameVariantStream? {
        let videoCodecs = variant.attributes.codecs.map(CodecDescription.init).filter { $0.kind == .video }
        if !variant.attributes.codecs.isEmpty && videoCodecs.isEmpty { return nil }
        let family = videoCodecs.first.map { normalized($0.family) }
        let range = variant.attributes.videoRange ?? .sdr
        let folder = directory(of: URIResolution.resolve(variant.uri, against: source))
        let fitting = candidates.enumerated().filter { _, c in
            let codecs = c.attributes.codecs.map(CodecDescription.init).filter { $0.kind == .video }
            if let family, let theirs = codecs.first, normalized(theirs.family) != family { return false }
            if (c.attributes.videoRange ?? .sdr) != range { return false }
            if let mine = variant.attributes.resolution, let theirs = c.attributes.resolution,
                theirs.width > mine.width || theirs.height > mine.height
            {
                return false
            }
            return true
        }
        func rank(_ c: IFrameVariantStream) -> [Int] {
            let same = c.attributes.resolution != nil && c.attributes.resolution == variant.attributes.resolution
            let exactFamily = c.attributes.codecs.map(CodecDescription.init).first { $0.kind == .video }?.family == videoCodecs.first?.family
            let sameFolder = directory(of: URIResolution.resolve(c.uri, against: source)) == folder
            let area = c.attributes.resolution.map { $0.width * $0.height } ?? 0
            return [same ? 1 : 0, exactFamily ? 1 : 0, sameFolder ? 1 : 0, area, c.attributes.bandwidth ?? 0]
        }
        return fitting.max { a, b in
            let (ra, rb) = (rank(a.element), rank(b.element))
            return ra != rb ? ra.lexicographicallyPrecedes(rb) : a.offset > b.offset
        }?.element
    }

    private static func normalized(_ family: CodecDescription.Family) -> CodecDescription.Family {
        // A Dolby Vision variant with an HEVC base layer may pair with an HEVC I-frame playlist.
        family == .dolbyVision ? .hevc : family
    }

    private static func directory(of url: String) -> Substring {
        let path = url.split(separator: "?", maxSplits: 1).first ?? Substring(url)
        return path.lastIndex(of: "/").map { path[..<$0] } ?? path
    }
}
