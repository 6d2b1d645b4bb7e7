import Playback

/// The primary's segment boundaries that `X-SNAP` aligns breaks with: every segment start of
/// the manifest's first video variant (Marquee's variants share their boundaries) and the end
/// of its last segment. An asset without video takes its first audio track's.
enum InterstitialSegmentBoundaries {
    static func of(_ manifest: PlaybackManifest) -> [Double] {
        guard let track = manifest.video.first ?? manifest.audio.first, let last = track.segments.last else { return [] }
        return track.segments.map(\.start) + [last.start + last.duration]
    }
}
