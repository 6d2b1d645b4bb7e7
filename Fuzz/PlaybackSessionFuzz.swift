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
    var session = PlaybackSessionStep.makeSession()
    var index = 0
    func word() -> UInt64 {
        var value: UInt64 = 0
        for k in 0..<8 where index + k < bytes.count { value |= UInt64(bytes[index + k]) << (8 * UInt64(k)) }
        index += 8
        return value
    }
    var failed = false
    while index < bytes.count {
        let op = Int(bytes[index])
        index += 1
        let raw = word()
        if PlaybackSessionStep.apply(op, Double(bitPattern: raw), Int(truncatingIfNeeded: raw), to: &session) { failed = true }
        let number = Double(bitPattern: raw)
        let integer = Int(truncatingIfNeeded: raw)
        let broken = session.invariantViolations
        if !broken.isEmpty || (failed && session.status != .failed) {
            FileHandle.standardError.write(Data("PlaybackSession broke its rules after op \(op) (\(number), \(integer)): \(broken), status \(session.status)\n".utf8))
            abort()
        }
    }
    return 0
}
