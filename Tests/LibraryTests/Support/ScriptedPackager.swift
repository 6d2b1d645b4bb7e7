import Foundation
import HLS

@testable import Library

/// A `BundlePackaging` stand-in for ingest tests that need a packager to behave a certain way
/// without FFmpeg: finish at once with a one-line playlist, hang (until cancelled) after
/// reporting some progress, or refuse. `hangingPrefix` limits the hang to sources whose file
/// name starts with it; other sources get `otherwise`.
struct ScriptedPackager: BundlePackaging {
    enum Behaviour: Sendable {
        /// Writes `master.m3u8` and reports 100 %.
        case finish
        /// Reports `progress` (when given), then makes no more progress until cancelled.
        case hang(after: Double?)
        /// Throws `LibraryError.unsupportedSource`.
        case refuse
    }

    var behaviour: Behaviour
    var hangingPrefix: String?
    var otherwise: Behaviour = .refuse
    var duration: Double = 2

    func probe(_ source: URL) async throws -> MediaProbe {
        MediaProbe(duration: duration, width: 16, height: 16, audioTracks: [], subtitleTracks: [])
    }

    func package(
        _ source: URL, probe: MediaProbe, into bundle: URL,
        progress: @escaping @Sendable (PackagingProgress) async -> Void
    ) async throws -> PackagedBundle {
        let applies = hangingPrefix.map { source.lastPathComponent.hasPrefix($0) } ?? true
        switch applies ? behaviour : otherwise {
        case .finish:
            try Data("#EXTM3U\n".utf8).write(to: bundle.appendingPathComponent(BundleLayout.multivariantPlaylist))
            await progress(PackagingProgress(.packagingVideo, 1))
            return PackagedBundle(multivariantPlaylist: BundleLayout.multivariantPlaylist, poster: nil, trickPlay: nil)
        case .hang(let reported):
            if let reported { await progress(PackagingProgress(.packagingVideo, reported)) }
            // A packager that hangs: it waits for nothing, and only cancellation ends it.
            while true { try await Task.sleep(for: .milliseconds(20)) }
        case .refuse:
            throw LibraryError.unsupportedSource(source.path)
        }
    }

    func decorate(bundle: URL, duration: Double, artwork: String?) async throws -> PackagedBundle {
        if case .finish = behaviour {
            return PackagedBundle(multivariantPlaylist: BundleLayout.multivariantPlaylist, poster: nil, trickPlay: nil)
        }
        throw LibraryError.unsupportedSource(bundle.path)
    }
}
