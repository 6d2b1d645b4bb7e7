public import Foundation
public import GRDB

/// A background job that turns an asset's source into a playable HLS bundle.
///
/// Jobs are rows so that progress and failures survive restarts and show in the API; a
/// failed job keeps its reason and can be retried.
public struct IngestJob: Codable, Sendable, Hashable, Identifiable {
    /// Waiting for a worker, held by one (under a lease), done, or failed for good.
    public enum State: String, Codable, Sendable, Hashable {
        case queued, running, succeeded, failed
    }

    /// The row's ID; nil until the job is stored.
    public var id: Int64?
    /// The asset the job packages.
    public var assetID: String
    /// Where the job is.
    public var state: State
    /// 0...1 while running.
    public var progress: Double
    /// What the job is doing now, or why it failed.
    public var message: String?
    /// How many times a worker took the job (a retry requested by a person starts again at 0).
    public var attempts: Int
    /// Why it failed, as a stable code (`IngestFailure.Reason`), when it failed.
    public var failureReason: String?
    /// When it was queued.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date

    /// A job for `assetID`, queued at `now` unless told otherwise.
    public init(assetID: String, state: State = .queued, progress: Double = 0, message: String? = nil, attempts: Int = 0, now: Date = Date()) {
        self.assetID = assetID
        self.state = state
        self.progress = progress
        self.message = message
        self.attempts = attempts
        self.createdAt = now
        self.updatedAt = now
    }
}

extension IngestJob: FetchableRecord, MutablePersistableRecord {
    /// The SQLite table that holds jobs.
    public static let databaseTableName = "ingestJob"

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns {
        /// `id`: jobs are taken in the order they were queued.
        public static let id = Column(CodingKeys.id)
        /// `assetID`.
        public static let assetID = Column(CodingKeys.assetID)
        /// `state`.
        public static let state = Column(CodingKeys.state)
    }

    /// Takes the row ID SQLite gave the inserted job.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
