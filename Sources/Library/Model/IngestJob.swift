public import Foundation
public import GRDB

/// A background job that turns an asset's source into a playable HLS bundle.
///
/// Jobs are rows so that progress and failures survive restarts and show in the API; a
/// failed job keeps its reason and can be retried.
public struct IngestJob: Codable, Sendable, Hashable, Identifiable {
    public enum State: String, Codable, Sendable, Hashable {
        case queued, running, succeeded, failed
    }

    public var id: Int64?
    public var assetID: String
    public var state: State
    /// 0...1 while running.
    public var progress: Double
    /// What the job is doing now, or why it failed.
    public var message: String?
    public var attempts: Int
    /// Why it failed, as a stable code (`IngestFailure.Reason`), when it failed.
    public var failureReason: String?
    public var createdAt: Date
    public var updatedAt: Date

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
    public static let databaseTableName = "ingestJob"

    /// The columns that queries filter and sort on (GRDB's `TableRecord.Columns`).
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let assetID = Column(CodingKeys.assetID)
        public static let state = Column(CodingKeys.state)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
