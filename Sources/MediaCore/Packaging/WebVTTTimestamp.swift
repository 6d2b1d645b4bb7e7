import Foundation

/// WebVTT's `hh:mm:ss.ttt` cue time, for the WebVTT Marquee writes itself (trick-play sprite
/// maps); subtitle cues are written by FFmpeg's `webvtt` muxer.
enum WebVTTTimestamp {
    static func text(_ seconds: Double) -> String {
        let milliseconds = Int((max(0, seconds) * 1000).rounded())
        return String(
            format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
            milliseconds / 1000 % 60, milliseconds % 1000)
    }
}
