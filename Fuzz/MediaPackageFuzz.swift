// libFuzzer entry point for the media path a person's file takes: probe (MediaAsset's typed
// loading), then HLS packaging (copy or encode, every audio track, subtitles, I-frame and
// image playlists). Built by scripts/fuzz-media.sh with Sources/HLS and Sources/MediaCore
// as modules of their own, under AddressSanitizer.
//
// The input is a media file (seeded with the media zoo's small files): the first byte picks
// the ladder (none: copy when compatible; or one small rung, which runs the re-encoder). The
// property checked is the one that matters on a server: whatever the bytes, nothing traps,
// overflows or corrupts memory — a bad file ends in a MediaError.
import Dispatch
import Foundation
import HLS
import MediaCore

private let scratch: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-media-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}()

private final class Outcome: @unchecked Sendable {
    // Written by the task before it signals, read after the wait: the semaphore orders them.
    var error: (any Error)?
}

@_cdecl("LLVMFuzzerTestOneInput")
public func mediaPackageFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let ladder: [Int]? = bytes[0] % 2 == 0 ? nil : [48]
    let file = Array(bytes[1...])
    let out = scratch.appendingPathComponent("package")
    try? FileManager.default.removeItem(at: out)
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    Task.detached {
        defer { done.signal() }
        do {
            let asset = MediaAsset(resourceLoader: MemoryResourceLoader(bytes: file, description: "fuzz input"))
            let (tracks, duration) = try await asset.load(.tracks, .duration)
            // Keep each input short: a header may claim hours.
            guard duration.isNumeric, duration.seconds < 30, tracks.count < 16 else { return }
            var options = PackagingOptions(ladder: ladder)
            options.segmentDuration = 1
            options.thumbnailInterval = 2
            options.thumbnailWidth = 32
            _ = try await HLSPackager(asset: asset, options: options).package(to: out.path)
        } catch {
            outcome.error = error
        }
    }
    done.wait()
    if let error = outcome.error, !(error is MediaError), !(error is CancellationError), !(error is CocoaError) {
        // Anything else thrown on bad input is an error type nobody expects.
        print("unexpected error type \(type(of: error)): \(error)")
    }
    return 0
}
