import Foundation
import Synchronization

/// Fans events out to every subscriber, in the order they were published.
///
/// Each subscriber gets an `AsyncStream` of the events published from the moment it
/// subscribed; it is forgotten as soon as its consumer stops iterating (or the stream is
/// dropped). A slow subscriber loses the oldest events beyond its buffer rather than holding
/// up the publisher or the other subscribers, so publishing never waits and never grows
/// memory without bound. Safe to use from any thread or actor: the library's change feed, the
/// Live Activities center and the download service each own one.
public final class EventFeed<Event: Sendable>: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<Event>.Continuation]>([:])

    public init() {}

    /// A stream of events from now on, keeping at most `buffer` undelivered ones (the newest);
    /// it ends when the consumer stops iterating.
    public func subscribe(buffer: Int = 512) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(buffer))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// How many subscribers are listening now.
    public var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// Delivers `event` to every subscriber.
    public func publish(_ event: Event) {
        let targets = subscribers.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(event) }
    }
}
