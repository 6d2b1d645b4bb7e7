/// Where a download in the server is in its life. Each state carries what it needs: a
/// failure its reason, an import the library asset once the library has taken it.
public enum DownloadState: Sendable, Hashable {
    /// Waiting for a free slot (or for the server to start it after a restart).
    case queued
    case downloading
    /// Held by the user; stays paused across a restart until resumed.
    case paused
    /// Every file is on disk; the bundle is being added to the library (`assetID` once added).
    case importing(assetID: String?)
    case finished(assetID: String)
    case failed(reason: String)
    case cancelled

    /// The name the API and the stored record use.
    public var name: String {
        switch self {
        case .queued: "queued"
        case .downloading: "downloading"
        case .paused: "paused"
        case .importing: "importing"
        case .finished: "finished"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }

    /// True while files may still arrive in its bundle.
    public var isUnfinished: Bool {
        switch self {
        case .queued, .downloading, .paused: true
        case .importing, .finished, .failed, .cancelled: false
        }
    }
}

extension DownloadState: Codable {
    private enum CodingKeys: String, CodingKey { case state, assetID, reason }

    /// Reads `{"state": "failed", "reason": "…"}` and the like, as `encode(to:)` writes it; throws
    /// `DecodingError` for an unknown state or a missing `assetID` (finished) or `reason` (failed).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .state) {
        case "queued": self = .queued
        case "downloading": self = .downloading
        case "paused": self = .paused
        case "importing": self = .importing(assetID: try c.decodeIfPresent(String.self, forKey: .assetID))
        case "finished": self = .finished(assetID: try c.decode(String.self, forKey: .assetID))
        case "failed": self = .failed(reason: try c.decode(String.self, forKey: .reason))
        case "cancelled": self = .cancelled
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .state, in: c, debugDescription: "unknown download state \(other)")
        }
    }

    /// Writes `state` (the `name`), with `assetID` for importing (once known) and finished, and
    /// `reason` for failed.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .state)
        switch self {
        case .importing(let id): try c.encodeIfPresent(id, forKey: .assetID)
        case .finished(let id): try c.encode(id, forKey: .assetID)
        case .failed(let reason): try c.encode(reason, forKey: .reason)
        default: break
        }
    }
}

/// The rules of one download's life as a value: events in, the effects the service must
/// carry out (start, pause or stop its task, import, remove files) out. It performs no I/O,
/// so every path — including a server restart — is tested without a network or a clock.
public struct DownloadLifecycle: Sendable, Hashable {
    /// Where the download is; changed only by `handle(_:)`.
    public private(set) var state: DownloadState
    /// Whether a download task runs for it in this process; false after a restart.
    public private(set) var hasTask: Bool

    /// What can happen to a download: a person's control, its task's outcome, the library's
    /// answer, or a restart.
    public enum Event: Sendable, Hashable {
        /// A download slot is free for it.
        case admit
        case pause, resume, cancel, retry
        /// Its task wrote the whole bundle.
        case taskFinished
        /// Its task stopped with this reason (plain words).
        case taskFailed(String)
        /// The library accepted the bundle as this asset (it is being imported).
        case added(assetID: String)
        /// The library asset is ready to play.
        case imported
        case importFailed(String)
        /// The server started again and read the record back.
        case recover
    }

    /// What the service must do after an event, in the order given.
    public enum Effect: Sendable, Hashable {
        case startTask, pauseTask, resumeTask, cancelTask
        /// Hand the finished bundle to the library (or keep waiting for the asset named in the state).
        case importBundle
        /// Delete what was downloaded (the record stays).
        case removeFiles
        /// The library has its own copy now: drop the downloaded one.
        case releaseBundle
    }

    /// Why an event does not apply in the current state, in words for a person.
    public struct Refusal: Error, Sendable, Hashable {
        /// The sentence a client sees (with a 409) when its control does not apply.
        public var message: String
    }

    /// The rules for a download in `state`; `hasTask` says whether a task runs for it in this process.
    public init(state: DownloadState = .queued, hasTask: Bool = false) {
        self.state = state
        self.hasTask = hasTask
    }

    /// Applies `event`; the effects are what the caller must do now, in order.
    public mutating func handle(_ event: Event) -> Result<[Effect], Refusal> {
        switch (event, state) {
        case (.admit, .queued):
            state = .downloading
            hasTask = true
            return .success([.startTask])
        case (.admit, _):
            return refuse("it is not waiting to start")

        case (.pause, .downloading):
            state = .paused
            return .success([.pauseTask])
        case (.pause, .queued):
            state = .paused
            return .success([])
        case (.pause, .paused):
            return .success([])
        case (.pause, _):
            return refuse("only a download in progress can be paused")

        case (.resume, .paused):
            if hasTask {
                state = .downloading
                return .success([.resumeTask])
            }
            state = .queued
            return .success([])
        case (.resume, .downloading), (.resume, .queued):
            return .success([])
        case (.resume, _):
            return refuse("only a paused download can be resumed")

        case (.cancel, .queued), (.cancel, .downloading), (.cancel, .paused), (.cancel, .failed):
            let effects: [Effect] = hasTask ? [.cancelTask, .removeFiles] : [.removeFiles]
            state = .cancelled
            hasTask = false
            return .success(effects)
        case (.cancel, .cancelled):
            return .success([])
        case (.cancel, _):
            return refuse("it has already finished downloading")

        case (.retry, .failed), (.retry, .cancelled):
            state = .queued
            hasTask = false
            return .success([])
        case (.retry, _):
            return refuse("only a failed or cancelled download can be retried")

        case (.taskFinished, .downloading), (.taskFinished, .paused):
            state = .importing(assetID: nil)
            hasTask = false
            return .success([.importBundle])
        case (.taskFailed(let reason), .downloading), (.taskFailed(let reason), .paused), (.taskFailed(let reason), .queued):
            state = .failed(reason: reason)
            hasTask = false
            return .success([])
        case (.taskFinished, _), (.taskFailed, _):
            // A task that ends after it was cancelled (or replaced) changes nothing.
            return .success([])

        case (.added(let id), .importing(nil)):
            state = .importing(assetID: id)
            return .success([])
        case (.imported, .importing(let id?)):
            state = .finished(assetID: id)
            return .success([.releaseBundle])
        case (.importFailed(let reason), .importing):
            state = .failed(reason: reason)
            return .success([])
        case (.added, _), (.imported, _), (.importFailed, _):
            return .success([])

        case (.recover, .downloading):
            state = .queued
            hasTask = false
            return .success([])
        case (.recover, .importing):
            hasTask = false
            return .success([.importBundle])
        case (.recover, _):
            hasTask = false
            return .success([])
        }
    }

    /// Whether the download may be deleted now: not while the library is adding its bundle.
    public var allowsDelete: Bool {
        if case .importing = state { false } else { true }
    }

    /// The actions a person may take on a download in `state`, by the names the API and the
    /// page use (`pause`, `resume`, `cancel`, `retry`, `delete`): each one this lifecycle would
    /// carry out rather than refuse or ignore as already done. Snapshots carry it, so the page
    /// offers exactly what the server allows and never restates the rules.
    public static func allowedActions(in state: DownloadState) -> [String] {
        let now = DownloadLifecycle(state: state, hasTask: true)
        var allowed: [String] = []
        for (name, event) in [("pause", Event.pause), ("resume", .resume), ("cancel", .cancel), ("retry", .retry)] {
            var next = now
            if case .success = next.handle(event), next != now { allowed.append(name) }
        }
        if now.allowsDelete { allowed.append("delete") }
        return allowed
    }

    private func refuse(_ why: String) -> Result<[Effect], Refusal> {
        .failure(Refusal(message: "The download is \(state.name): \(why)."))
    }
}
