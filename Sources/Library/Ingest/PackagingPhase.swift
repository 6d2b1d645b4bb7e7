/// A named step of packaging one file, as the packager reports it while it works.
///
/// The job's message comes from the phase (`jobMessage`), never from how far the work is: an
/// audio-only file has no thumbnails, so it never reads "Making thumbnails".
public enum PackagingPhase: String, Codable, Sendable, Hashable, CaseIterable {
    /// Writing the HLS bundle of a file with a picture (the video ladder and its audio).
    case packagingVideo
    /// Writing the HLS bundle of an audio-only file (music, a podcast).
    case packagingAudio
    /// Saving an audio file's embedded cover art as its poster.
    case savingCoverArt
    /// Decoding a frame for `poster.jpg`.
    case makingPoster
    /// Writing the trick-play sprite sheet.
    case makingThumbnails

    /// What the job's row says while the packager is in this phase (one of `IngestMessage`'s).
    public var jobMessage: String {
        switch self {
        case .packagingVideo, .packagingAudio, .savingCoverArt: IngestMessage.packaging
        case .makingPoster, .makingThumbnails: IngestMessage.makingThumbnails
        }
    }
}

/// What a packager reports while it works: the phase it is in and how far the whole packaging
/// is (0...1, never going back).
public struct PackagingProgress: Codable, Sendable, Hashable {
    /// The step the packager is in.
    public var phase: PackagingPhase
    /// How far the whole packaging is, 0...1.
    public var fraction: Double

    /// Progress of `fraction` (0...1) in `phase`.
    public init(_ phase: PackagingPhase, _ fraction: Double) {
        self.phase = phase
        self.fraction = fraction
    }
}

/// Every message a running or requeued ingest job's row shows, in one place. The API serves
/// them as the job's `message`; the page shows a failed job's message only when it has no
/// reason code to translate.
public enum IngestMessage {
    /// Copying a source kept elsewhere (a bucket) to the worker before probing.
    public static let fetching = "Fetching the source"
    /// Taking in a bundle that arrived already packaged (an offline download).
    public static let importing = "Importing bundle"
    /// Reading the source's duration, size and tracks.
    public static let probing = "Probing"
    /// Writing the HLS bundle.
    public static let packaging = "Packaging"
    /// Making the poster and the trick-play images.
    public static let makingThumbnails = "Making thumbnails"
    /// Uploading the finished bundle to the bucket the library serves it from.
    public static let publishing = "Publishing"
    /// A job handed back by a stopping worker (SIGTERM), waiting in the queue.
    public static let waitingForWorker = "Waiting for a worker"
    /// A job whose packager process crashed, queued to try again.
    public static let retryingAfterCrash = "Retrying after the media converter crashed"
    /// A stopped job's message when nothing more specific says why.
    public static let cancelled = "Cancelled"

    /// A job requeued after a failure that was not about its media.
    public static func retrying(in delay: Duration) -> String { "Retrying in \(delay.components.seconds) s" }

    /// A job the watchdog stopped.
    public static func stalled(limit: Duration) -> String { "Stopped: no progress for \(limit.components.seconds) s" }
}
