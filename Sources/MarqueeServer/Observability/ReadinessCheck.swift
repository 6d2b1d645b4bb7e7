import Foundation
public import Library
public import Logging
import Synchronization

/// What `/readyz` asks before it says a node may take traffic: the database answers, the job
/// queue can be read, and — when media are in a bucket — the bucket answers. Each check has
/// `limit` (1 s) to answer and they run side by side, so `/readyz` answers within about that
/// long whatever is down.
public struct ReadinessCheck: Sendable {
    /// One check's outcome, as `/readyz` lists it.
    public struct Result: Codable, Sendable, Equatable {
        /// `database`, `queue` or `media-storage`.
        public var name: String
        public var ok: Bool
        /// How long it took, in milliseconds.
        public var milliseconds: Int
        /// When it failed: a sentence (never the service's own text, which is logged instead).
        public var message: String?
    }

    let library: MediaLibrary
    /// How long each check may take.
    public var limit: Duration = .seconds(1)

    public init(library: MediaLibrary, limit: Duration = .seconds(1)) {
        self.library = library
        self.limit = limit
    }

    /// Runs every check at once; also returns the queue's counts by state when the queue answered.
    public func run(logger: Logger) async -> (results: [Result], jobs: [String: Int]?) {
        let store = library.store
        let media = library.media
        let limit = limit
        let jobs = JobCountsBox()
        let database: @Sendable () async throws -> Void = { _ = try await store.assetCount() }
        let queue: @Sendable () async throws -> Void = {
            let counts = try await store.jobCounts()
            jobs.set(Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) }))
        }
        let bucket: @Sendable () async throws -> Void = { try await media.checkReachable() }
        let checks: [(String, @Sendable () async throws -> Void)] =
            [("database", database), ("queue", queue)] + (media.isLocal ? [] : [("media-storage", bucket)])
        let results = await withTaskGroup(of: Result.self) { group in
            for (name, check) in checks {
                group.addTask { await Self.timed(name, limit: limit, logger: logger, check) }
            }
            var results: [Result] = []
            for await result in group { results.append(result) }
            return results.sorted { a, b in checks.firstIndex { $0.0 == a.name }! < checks.firstIndex { $0.0 == b.name }! }
        }
        return (results, jobs.get())
    }

    /// Runs `check` for at most `limit`.
    static func timed(_ name: String, limit: Duration, logger: Logger, _ check: @escaping @Sendable () async throws -> Void) async -> Result {
        let started = ContinuousClock.now
        let outcome: String? = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do {
                    try await check()
                    return nil
                } catch {
                    // (Cancelled: the time ran out, which the other task says.)
                    if !Task.isCancelled { logger.warning("readiness check \(name) failed: \(String(reflecting: error))") }
                    return "it answered with an error (the server's log says which)"
                }
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return "it did not answer within \(Self.describe(limit))"
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let elapsed = started.duration(to: .now)
        let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        return Result(name: name, ok: outcome == nil, milliseconds: milliseconds, message: outcome.map { "The \(Self.service(name)): \($0)" })
    }

    static func service(_ name: String) -> String {
        switch name {
        case "database": "database"
        case "queue": "job queue"
        default: "media storage"
        }
    }

    static func describe(_ limit: Duration) -> String {
        let milliseconds = limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}

/// The queue's counts, handed out of a check's task.
private final class JobCountsBox: Sendable {
    private let counts = Mutex<[String: Int]?>(nil)
    func set(_ value: [String: Int]) { counts.withLock { $0 = value } }
    func get() -> [String: Int]? { counts.withLock { $0 } }
}
