public import Foundation
import Synchronization

/// Whole media files (segments, keys, pictures) this node read from the bucket recently, kept in
/// memory up to a byte budget, least recently used first out — so a segment many people fetch
/// crosses from the bucket to this node once, not once per viewer.
///
/// Each entry is stamped with the *generation* of its asset's bundle (the ETag of its
/// `master.m3u8`, which every publish replaces last) and is used only while that generation is
/// current: a re-published asset never serves an old segment from here.
public final class HotMediaCache: Sendable {
    /// A cached file: its bytes, its validator, and the bundle generation it belongs to.
    public struct Entry: Sendable {
        public let data: Data
        public let eTag: String?
        public let generation: String

        public init(data: Data, eTag: String?, generation: String) {
            self.data = data
            self.eTag = eTag
            self.generation = generation
        }
    }

    private struct Slot {
        var entry: Entry
        var lastUse: UInt64
    }

    private struct State {
        var slots: [String: Slot] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// The most bytes kept; 0 keeps nothing.
    public let capacity: Int
    /// The largest file kept (a larger one is streamed through and not kept).
    public let largestFile: Int
    private let state = Mutex(State())

    public init(capacity: Int, largestFile: Int = 16 << 20) {
        self.capacity = max(0, capacity)
        self.largestFile = min(largestFile, self.capacity)
    }

    /// The entry for `key` if it belongs to `generation`; an entry of another generation is dropped.
    public func entry(_ key: String, generation: String) -> Entry? {
        state.withLock { state in
            guard let slot = state.slots[key] else {
                state.misses += 1
                return nil
            }
            guard slot.entry.generation == generation else {
                state.slots[key] = nil
                state.bytes -= slot.entry.data.count
                state.misses += 1
                return nil
            }
            state.clock += 1
            state.slots[key]?.lastUse = state.clock
            state.hits += 1
            return slot.entry
        }
    }

    /// Keeps `entry` under `key`, evicting the least recently used entries to stay in budget.
    public func keep(_ entry: Entry, as key: String) {
        let size = entry.data.count
        guard size <= largestFile, capacity > 0 else { return }
        state.withLock { state in
            if let old = state.slots.removeValue(forKey: key) { state.bytes -= old.entry.data.count }
            // Eviction scans for the oldest use: a few thousand entries at most (the budget over
            // the smallest segments), on a miss only.
            while state.bytes + size > capacity, let oldest = state.slots.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.slots[oldest.key] = nil
                state.bytes -= oldest.value.entry.data.count
            }
            state.clock += 1
            state.slots[key] = Slot(entry: entry, lastUse: state.clock)
            state.bytes += size
        }
    }

    /// Drops every entry whose key starts with `prefix` (an asset's media, when this node
    /// publishes or removes it).
    public func forget(prefix: String) {
        state.withLock { state in
            for (key, slot) in state.slots where key.hasPrefix(prefix) {
                state.slots[key] = nil
                state.bytes -= slot.entry.data.count
            }
        }
    }

    /// Bytes kept, entries, hits and misses so far (for tests and the bench).
    public var usage: (bytes: Int, entries: Int, hits: Int, misses: Int) {
        state.withLock { ($0.bytes, $0.slots.count, $0.hits, $0.misses) }
    }
}

/// Passes a store's chunks through and, when they add up to the whole file, hands the file to
/// `keep` — so the first reader of a segment fills the cache without waiting for it.
struct KeepingChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let base: any AsyncSequence<Data, any Error> & Sendable
    let expected: Int
    let keep: @Sendable (Data) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: any AsyncIteratorProtocol<Data, any Error>
        let expected: Int
        let keep: @Sendable (Data) -> Void
        var gathered: Data?

        mutating func next() async throws -> Data? {
            guard let chunk = try await base.next() else {
                if let whole = gathered, whole.count == expected { keep(whole) }
                gathered = nil
                return nil
            }
            gathered?.append(chunk)
            if let count = gathered?.count, count > expected { gathered = nil }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        var gathered = Data()
        gathered.reserveCapacity(expected)
        return AsyncIterator(base: base.makeAsyncIterator(), expected: expected, keep: keep, gathered: gathered)
    }
}

/// A cached file as a store stream's chunks (64 KiB each, so a slow client is written to in steps).
struct CachedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let data: Data

    struct AsyncIterator: AsyncIteratorProtocol {
        let data: Data
        var offset: Int

        mutating func next() async throws -> Data? {
            guard offset < data.endIndex else { return nil }
            let end = Swift.min(offset + (64 << 10), data.endIndex)
            defer { offset = end }
            return data.subdata(in: offset..<end)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(data: data, offset: data.startIndex) }
}
