// libFuzzer entry point for PlaybackSession. Built by scripts/fuzz.sh together with the
// Playback sources as one module.
//
// The input is a program: each step is one byte choosing an intent or a renderer report,
// followed by eight bytes read as a Double's bit pattern (any time, NaN and infinities
// included) or as an Int (any step count). Properties checked after every step:
// - nothing traps (overflow, a non-finite conversion);
// - `invariantViolations` is empty (times inside the item, a selected speed that is offered,
//   renditions that exist, no break before the item is ready);
// - a failed session stays failed.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func playbackSessionFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var session = PlaybackSession(
        id: "fuzz", assetID: "a", metadata: DisplayMetadata(title: "Clip"),
        audioOptions: [MediaOption(id: "en", kind: .audio, name: "English", language: "en", isDefault: true),
                       MediaOption(id: "fr", kind: .audio, name: "Français", language: "fr")],
        subtitleOptions: [MediaOption(id: "en", kind: .subtitles, name: "English", language: "en")],
        interstitials: [
            InterstitialEvent(id: "pre", time: 0, url: "/ad", duration: 5, cue: .joinCue),
            InterstitialEvent(id: "mid", time: 8, url: "/ad", duration: 5,
                              restrictions: [.constrainsSeekingForwardInPrimaryContent, .requiresPlaybackAtPreferredRateForAdvancement]),
            InterstitialEvent(id: "late", time: 30, url: "/ad", duration: 5, resumptionOffset: 2),
            InterstitialEvent(id: "post", time: 0, url: "/ad", duration: 5, cue: .leaveCue),
        ])
    var index = 0
    func word() -> UInt64 {
        var value: UInt64 = 0
        for k in 0..<8 where index + k < bytes.count { value |= UInt64(bytes[index + k]) << (8 * UInt64(k)) }
        index += 8
        return value
    }
    var failed = false
    while index < bytes.count {
        let op = bytes[index] % 20
        index += 1
        let raw = word()
        let number = Double(bitPattern: raw)
        let integer = Int(truncatingIfNeeded: raw)
        switch op {
        case 0: _ = session.handle(.play)
        case 1: _ = session.handle(.pause)
        case 2: _ = session.handle(.togglePlayPause)
        case 3: _ = session.handle(.skip(by: number))
        case 4: _ = session.handle(.seek(to: number))
        case 5: _ = session.handle(.seekToFraction(number))
        case 6: _ = session.handle(.selectSpeed(rate: number))
        case 7: _ = session.handle(.stepSpeed(by: integer))
        case 8: _ = session.handle(.selectAudio(id: integer & 1 == 0 ? "fr" : "xx"))
        case 9: _ = session.handle(.selectSubtitles(id: integer & 1 == 0 ? nil : "en"))
        case 10: _ = session.handle(.toggleCaptions)
        case 11: _ = session.handle(.ready(duration: number))
        case 12, 13: _ = session.handle(.time(number))
        case 14: _ = session.handle(.playing)
        case 15: _ = session.handle(.stalled)
        case 16: _ = session.handle(.ended)
        case 17: session.setSpeeds([PlaybackSpeed(rate: number, language: .english), PlaybackSpeed(rate: 1, language: .japanese)])
        case 18: session.setLanguage(integer & 1 == 0 ? .english : .japanese)
        default:
            _ = session.handle(.failed(message: "fuzz"))
            failed = true
        }
        let broken = session.invariantViolations
        if !broken.isEmpty || (failed && session.status != .failed) {
            FileHandle.standardError.write(Data("PlaybackSession broke its rules after op \(op) (\(number), \(integer)): \(broken), status \(session.status)\n".utf8))
            abort()
        }
    }
    return 0
}
