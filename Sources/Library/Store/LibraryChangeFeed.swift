import Foundation
import Synchronization

/// Something in the library changed that a page showing it would want to know.
public enum LibraryChange: Sendable, Hashable {
    /// An asset was added or changed (metadata, status, its job's progress, playback position).
    case assetChanged(String)
    /// An asset was deleted (moved to the trash) or purged.
    case assetRemoved(String)
}

/// Fans library changes out to every subscriber (the server's event stream), in order.
///
/// The store publishes after each write; a slow subscriber loses the oldest changes beyond
/// its buffer rather than holding anyone up (a page that reconnects reloads the list anyway).
public final class LibraryChangeFeed: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<LibraryChange>.Continuation]>([:])

    public init() {}

    /// A stream of changes from now on; it ends when the consumer stops iterating.
    public func subscribe(buffer: Int = 512) -> AsyncStream<LibraryChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: LibraryChange.self, bufferingPolicy: .bufferingNewest(buffer))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    public var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// Delivers `change` to every subscriber (stores call this after each write).
    public func publish(_ change: LibraryChange) {
        let targets = subscribers.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(change) }
    }
}
