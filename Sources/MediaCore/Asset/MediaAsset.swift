public import Foundation
import Synchronization

/// A piece of timed media — a file, an HTTP(S) resource, an HLS playlist or bytes from a custom
/// `ResourceLoader` — whose properties load asynchronously, like `AVAsset`.
///
/// Nothing is read when an asset is made. `load(_:)` opens the container on a MediaCore pool
/// thread the first time any property is asked for; every later or concurrent request shares
/// that one load. There are no synchronous accessors for values that need I/O: `status(of:)`
/// says whether a value is there yet.
public final class MediaAsset: Sendable {
    public let source: AssetSource
    let pool: MediaThreadPool
    private let state = Mutex(LoadState())

    private struct LoadState {
        var requested: Set<String> = []
        var inspection: Task<AssetInspection, any Error>?
        var waiters = 0
        var result: Result<AssetInspection, any Error>?
        /// How many times the container was actually opened for inspection (for tests).
        var opens = 0
    }

    public init(url: URL, pool: MediaThreadPool = .shared) {
        self.source = .url(url)
        self.pool = pool
    }

    /// A local file read on its own: if it is a playlist or a reference movie, the files it
    /// names are not opened (see `AssetSource.isolatedFile`). For media handed in by a user.
    public init(isolatedFile url: URL, pool: MediaThreadPool = .shared) {
        self.source = .isolatedFile(url)
        self.pool = pool
    }

    public convenience init(path: String, pool: MediaThreadPool = .shared) {
        self.init(url: URL(fileURLWithPath: path), pool: pool)
    }

    public init(resourceLoader: any ResourceLoader, pool: MediaThreadPool = .shared) {
        self.source = .loader(resourceLoader)
        self.pool = pool
    }

    /// Loads one or more properties and returns their values as a typed tuple:
    /// `let (duration, tracks) = try await asset.load(.duration, .tracks)`.
    public func load<each Value: Sendable>(_ properties: repeat AssetProperty<each Value>) async throws -> (repeat each Value) {
        var names: [String] = []
        for property in repeat each properties { names.append(property.name) }
        let inspection = try await inspection(marking: names)
        return (repeat (each properties).extract(inspection))
    }

    /// Where a property's loading stands, without waiting.
    public func status<Value>(of property: AssetProperty<Value>) -> AssetPropertyStatus<Value> {
        state.withLock { state in
            guard state.requested.contains(property.name) else { return .notYetLoaded }
            switch state.result {
            case .success(let inspection): return .loaded(property.extract(inspection))
            case .failure(let error): return .failed(error)
            case nil: return .loading
            }
        }
    }

    /// How many times the container has been opened to load properties.
    var inspectionCount: Int { state.withLock { $0.opens } }

    private func inspection(marking names: [String]) async throws -> AssetInspection {
        let task: Task<AssetInspection, any Error> = state.withLock { state in
            state.requested.formUnion(names)
            if let existing = state.inspection {
                state.waiters += 1
                return existing
            }
            let source = self.source
            let pool = self.pool
            state.opens += 1
            state.waiters = 1
            let task = Task {
                try await pool.run { flag in
                    let input = try FormatInput(source: source, flag: flag)
                    return AssetInspection(input: input)
                }
            }
            state.inspection = task
            return task
        }
        let result: Result<AssetInspection, any Error>
        do {
            result = .success(
                try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    self.leave(task, cancelling: true)
                })
        } catch {
            result = .failure(error)
        }
        state.withLock { state in
            guard state.inspection == task else { return }
            if case .failure(let error) = result, error is CancellationError {
                // A cancelled load leaves the properties unloaded; a later load starts afresh.
                state.inspection = nil
                state.requested.subtract(names)
                state.waiters = 0
            } else {
                state.result = result
            }
        }
        return try result.get()
    }

    /// One waiter stops waiting; the shared load is cancelled when nobody waits any more.
    private func leave(_ task: Task<AssetInspection, any Error>, cancelling: Bool) {
        let cancel = state.withLock { state -> Bool in
            guard state.inspection == task, state.result == nil else { return false }
            state.waiters -= 1
            return state.waiters <= 0
        }
        if cancel { task.cancel() }
    }
}
