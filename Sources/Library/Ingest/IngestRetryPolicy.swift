import Foundation

/// What stopped an ingest step, classified once so the retry policy decides without the error.
struct IngestTrouble: Sendable, Hashable {
    /// The reason and the plain-words message the job fails with.
    var failure: IngestFailure
    /// A `LibraryError` is about the file or the request: never retried as a passing fault.
    var isLibraryError: Bool
    /// The step was cancelled (the task, or the work it waited for).
    var cancelled: Bool
    /// A save found the job's lease held by another worker.
    var leaseLost: Bool
    /// The full error (FFmpeg's message, the path), for the server's log only.
    var detail: String

    init(_ error: any Error, cancelled: Bool = false) {
        failure = IngestFailure(error)
        isLibraryError = error is LibraryError
        self.cancelled = cancelled || error is CancellationError
        leaseLost = error is IngestWorker.LeaseLost
        detail = (error as? LibraryError)?.description ?? String(describing: error)
    }
}

/// Why the running job was stopped from outside its task, as the worker learned it. Several may
/// arrive; each is remembered (`IngestStops`).
enum IngestInterruption: Sendable, Hashable {
    /// Its asset is being deleted.
    case cancelled
    /// The watchdog saw no progress for `limit`.
    case stalled(limit: Duration)
    /// The heartbeat found the lease held by another worker.
    case leaseLost
    /// The worker is stopping (SIGTERM): the job goes back to the queue.
    case handBack

    /// The stopped job's message when it fails (`IngestMessage`).
    var message: String {
        switch self {
        case .cancelled: IngestMessage.cancelled
        case .stalled(let limit): IngestMessage.stalled(limit: limit)
        case .leaseLost: "Lost the lease"
        case .handBack: "Handed back"
        }
    }
}

/// The interruptions a running job has had: the lease and the hand-back are remembered as
/// flags, and the latest one's words are the stop reason.
struct IngestStops: Sendable, Hashable {
    var leaseLost = false
    var handingBack = false
    var reason: String?

    /// Whether anything stopped the job (its task was cancelled then).
    var stopped: Bool { reason != nil }

    mutating func note(_ interruption: IngestInterruption) {
        switch interruption {
        case .leaseLost: leaseLost = true
        case .handBack: handingBack = true
        case .cancelled, .stalled: break
        }
        reason = interruption.message
    }
}

/// The one place that decides what happens to a job that did not finish: let it go, hand it
/// back, try it again (and when), or fail it for good with a reason.
struct IngestRetryPolicy: Sendable, Hashable {
    /// How many times a job whose media work crashed is started before it fails for good.
    static let crashAttempts = 2

    /// How many times a job is started before it is failed for good (each lease expiry counts).
    var maximumAttempts: Int

    /// What becomes of the job.
    enum Decision: Sendable, Hashable {
        /// Another worker holds the job now: write nothing more for it.
        case letGo
        /// Back to the queue at once with `attempts` (this start not counted).
        case handBack(attempts: Int)
        /// Back to the queue, to start again after `delay`.
        case retry(after: Duration, message: String)
        /// Failed for good.
        case fail(IngestFailure.Reason, message: String)
    }

    /// The delay before retrying a job that has been started `attempts` times: doubling, at most a minute.
    func backoff(attempts: Int) -> Duration {
        .seconds(min(60, 1 << min(max(attempts, 0), 6)))
    }

    /// Decides for a job started `attempts` times that stopped with `trouble` after `stops`.
    func decide(_ trouble: IngestTrouble, attempts: Int, stops: IngestStops) -> Decision {
        if stops.leaseLost || trouble.leaseLost { return .letGo }
        if stops.handingBack { return .handBack(attempts: max(0, attempts - 1)) }
        let reason = trouble.failure.reason
        // A job stopped from outside had its task cancelled, whatever the step then threw.
        let cancelled = trouble.cancelled || stops.stopped
        // A crash in the child that does media work can come from the machine, not the file:
        // once more, then fail with that reason.
        if !cancelled, reason == .packagerCrashed, attempts < Self.crashAttempts {
            return .retry(after: .seconds(1), message: IngestMessage.retryingAfterCrash)
        }
        // Not about the media (the database or the storage failed): try again later.
        if !cancelled, reason == .unknown, !trouble.isLibraryError, attempts < maximumAttempts {
            let delay = backoff(attempts: attempts)
            return .retry(after: delay, message: IngestMessage.retrying(in: delay))
        }
        let message = cancelled ? (stops.reason ?? IngestMessage.cancelled) : trouble.failure.message
        return .fail(reason, message: message)
    }
}
