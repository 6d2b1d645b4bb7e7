import Foundation

/// The steps of one ingest job as a value: events in, the effects the worker must carry out
/// out. It performs no I/O, so every path — a missing source, a crash, a lost lease, a
/// hand-back on SIGTERM — is tested without files, a database or FFmpeg.
///
/// open → fetch (a source in object storage) → inspect → import (an HLS folder) → decorate
/// | probe → package → publish → finish. Anything that stops a step arrives as `failed`, and
/// `IngestRetryPolicy` decides what becomes of the job. `IngestWorker` runs the effects.
///
/// Each effect list ends with at most one effect that answers with an event (`answers`); the
/// effects before it only write (`announce`, `clearStaging`…), and a write that throws stops
/// the list and arrives as `failed`.
struct IngestLifecycle: Sendable, Hashable {
    /// Where the job is.
    enum Step: Sendable, Hashable {
        /// Claimed, not begun.
        case claimed
        /// Loading its asset and marking it as processing.
        case opening
        /// Copying the source out of object storage into a scratch folder.
        case fetching
        /// Checking what the source path names now.
        case inspecting
        /// Recording that the source is gone.
        case markingMissing
        /// Copying an HLS bundle folder (an offline download).
        case importing
        /// Adding a poster and trick-play images to an imported bundle.
        case decorating
        case probing
        case packaging
        /// Reading the badges and publishing the bundle to the media store.
        case publishing
        /// Confirming the lease and marking the asset ready and the job done.
        case finishing
        case ended(Outcome)
    }

    /// How a job's run ended.
    enum Outcome: Sendable, Hashable {
        case succeeded
        case failed(IngestFailure.Reason)
        case retrying(after: Duration)
        case handedBack
        /// Another worker holds the job: nothing more was written.
        case letGo
        /// Its asset was deleted before the job began.
        case assetGone
    }

    /// Where a job's source is.
    enum Source: Sendable, Hashable {
        /// A path on this machine.
        case local(String)
        /// A key in object storage (an upload), fetched before use.
        case stored(String)
    }

    enum Event: Sendable, Hashable {
        case begin
        /// The asset is loaded and marked processing; `source` is nil when it has no source path.
        case opened(source: Source?)
        case assetGone
        /// The stored source was copied out (`found`), or object storage has no such object.
        case fetched(found: Bool)
        /// What the source (at `path`, fetched or local) names now.
        case inspected(SourceFileKind, path: String)
        case sourceMarkedMissing
        /// The bundle folder was copied; `duration` as its playlists give it.
        case imported(duration: Double?)
        case decorated
        case probed
        case packaged
        case published
        /// Whether this worker still holds the job's lease.
        case leaseConfirmed(Bool)
        /// The asset is ready and the job's row says it succeeded.
        case recorded
        /// A step threw.
        case failed(IngestTrouble)
        /// Something outside the job's task stopped it.
        case interrupt(IngestInterruption)
    }

    enum Effect: Sendable, Hashable {
        /// Load the asset, mark it processing → `opened` or `assetGone`.
        case openAsset
        /// Write `message` to the job's row under the lease.
        case announce(String)
        /// Copy the stored source into the scratch folder → `fetched`.
        case fetchSource
        /// Check what the source path names → `inspected`.
        case inspectSource
        /// Save the asset as having lost its source → `sourceMarkedMissing`.
        case markSourceMissing
        /// Remove what an earlier attempt left in the staging folder.
        case clearStaging
        /// Create the empty staging folder the packager writes into.
        case createStaging
        /// Copy the bundle folder into staging → `imported`.
        case importBundle
        /// Poster and trick-play images for the imported bundle → `decorated`.
        case decorate
        /// Read the source's duration, size and tags into the asset → `probed`.
        case probe
        /// Package the source into staging, reporting phases → `packaged`.
        case package
        /// Read the bundle's badges (HD, CC…) into the asset.
        case readBadges
        /// Publish the staged bundle → `published`.
        case publish
        /// Renew the lease: the last word on the asset is the holder's → `leaseConfirmed`.
        case confirmLease
        /// Save the asset ready and the job succeeded → `recorded`.
        case recordSuccess
        /// Put the job back in the queue with `message` and `attempts`, to start after `delay`.
        case requeue(after: Duration, message: String, attempts: Int)
        /// Save the job failed with `reason` and `message`, and its asset failed.
        case recordFailure(IngestFailure.Reason, message: String)
        /// Another worker has the job: write nothing more (and say so in the log).
        case letGo
        /// A line for the server's log.
        case log(String)
        /// Cancel the job's running task.
        case stopWork

        /// Whether carrying it out answers with an event.
        var answers: Bool {
            switch self {
            case .openAsset, .fetchSource, .inspectSource, .markSourceMissing, .importBundle, .decorate, .probe, .package, .publish,
                .confirmLease, .recordSuccess:
                true
            case .announce, .clearStaging, .createStaging, .readBadges, .requeue, .recordFailure, .letGo, .log, .stopWork:
                false
            }
        }
    }

    let assetID: String
    /// How many times the job has been started, this start included.
    let attempts: Int
    let policy: IngestRetryPolicy
    /// Whether the media store publishes in place (a folder): no "Publishing" step to show.
    let mediaIsLocal: Bool
    private(set) var step: Step = .claimed
    /// What stopped the job from outside, for the retry policy.
    private(set) var stops = IngestStops()
    /// Where the source is, once the asset is open.
    private(set) var source: Source?
    /// The file the source was inspected at (the fetched copy of a stored one).
    private(set) var inspectedPath: String?

    init(assetID: String, attempts: Int, policy: IngestRetryPolicy, mediaIsLocal: Bool) {
        self.assetID = assetID
        self.attempts = attempts
        self.policy = policy
        self.mediaIsLocal = mediaIsLocal
    }

    /// Whether the job's run is over.
    var hasEnded: Bool {
        if case .ended = step { return true }
        return false
    }

    /// Applies `event`; the effects are what the worker must do now, in order. An event that
    /// does not belong to the current step changes nothing.
    mutating func handle(_ event: Event) -> [Effect] {
        switch (event, step) {
        case (.interrupt(let why), _):
            return interrupt(why)
        case (_, .ended):
            return []
        case (.failed(let trouble), _):
            return settle(trouble)

        case (.begin, .claimed):
            // Each start counts, so a job whose worker keeps dying under it ends; that is an
            // interruption, not a fault of the file.
            guard attempts <= policy.maximumAttempts else { return settle(IngestTrouble(IngestInterrupted(attempts: attempts - 1))) }
            step = .opening
            return [.openAsset]

        case (.assetGone, .opening):
            step = .ended(.assetGone)
            return []
        case (.opened(nil), .opening):
            return settle(IngestTrouble(LibraryError.unsupportedSource(assetID)))
        case (.opened(let source?), .opening):
            self.source = source
            guard case .stored = source else { return inspect() }
            step = .fetching
            return [.announce(IngestMessage.fetching), .fetchSource]

        case (.fetched(let found), .fetching):
            guard found else { return settle(IngestTrouble(LibraryError.sourceNotFound(sourcePath))) }
            return inspect()

        case (.inspected(let kind, let path), .inspecting):
            inspectedPath = path
            switch kind {
            case .missing:
                step = .markingMissing
                return [.markSourceMissing]
            case .other(let what):
                return settle(IngestTrouble(SourceFileKind.refusal(path, what)))
            case .directory:
                step = .importing
                return [.clearStaging, .announce(IngestMessage.importing), .importBundle]
            case .regularFile:
                step = .probing
                return [.clearStaging, .createStaging, .announce(IngestMessage.probing), .probe]
            }
        case (.sourceMarkedMissing, .markingMissing):
            return settle(IngestTrouble(LibraryError.sourceNotFound(inspectedPath ?? sourcePath)))

        case (.imported(let duration), .importing):
            guard let duration, duration > 0 else { return publish() }
            step = .decorating
            return [.announce(IngestMessage.makingThumbnails), .decorate]
        case (.decorated, .decorating):
            return publish()

        case (.probed, .probing):
            step = .packaging
            return [.announce(IngestMessage.packaging), .package]
        case (.packaged, .packaging):
            return publish()

        case (.published, .publishing):
            step = .finishing
            return [.confirmLease]
        case (.leaseConfirmed(true), .finishing):
            return [.recordSuccess]
        case (.leaseConfirmed(false), .finishing):
            return settle(IngestTrouble(IngestWorker.LeaseLost()))
        case (.recorded, .finishing):
            step = .ended(.succeeded)
            return []

        default:
            return []
        }
    }

    /// The source path as the asset names it, for errors.
    private var sourcePath: String {
        switch source {
        case .local(let path), .stored(let path): path
        case nil: ""
        }
    }

    private mutating func inspect() -> [Effect] {
        step = .inspecting
        return [.inspectSource]
    }

    private mutating func publish() -> [Effect] {
        step = .publishing
        return mediaIsLocal ? [.readBadges, .publish] : [.readBadges, .announce(IngestMessage.publishing), .publish]
    }

    private mutating func interrupt(_ why: IngestInterruption) -> [Effect] {
        guard !hasEnded else { return [] }
        stops.note(why)
        return [.stopWork]
    }

    /// Ends the run as the retry policy decides for `trouble`.
    private mutating func settle(_ trouble: IngestTrouble) -> [Effect] {
        switch policy.decide(trouble, attempts: attempts, stops: stops) {
        case .letGo:
            step = .ended(.letGo)
            return [.letGo]
        case .handBack(let attempts):
            step = .ended(.handedBack)
            return [.requeue(after: .zero, message: IngestMessage.waitingForWorker, attempts: attempts)]
        case .retry(let delay, let message):
            step = .ended(.retrying(after: delay))
            let log =
                trouble.failure.reason == .packagerCrashed
                ? "ingest of asset \(assetID): \(trouble.detail); trying once more"
                : "ingest of asset \(assetID) failed (\(trouble.detail)); retrying in \(delay.components.seconds) s"
            return [.log(log), .requeue(after: delay, message: message, attempts: attempts)]
        case .fail(let reason, let message):
            step = .ended(.failed(reason))
            return [
                .log("ingest of asset \(assetID) failed (\(reason.rawValue)): \(trouble.detail)"),
                .recordFailure(reason, message: message),
            ]
        }
    }
}
