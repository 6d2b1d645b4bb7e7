import BlockingWork
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// The part of a response body a transfer keeps: all of it, or `take` bytes after `skip`
/// (when a server answers a range request with the whole resource).
struct BodyWindow: Sendable {
    var skip: UInt64
    var take: UInt64?

    /// The bytes of `chunk` (which starts at `start` in the body) inside the window, if any.
    func slice(of chunk: inout ByteBuffer, startingAt start: UInt64) -> ByteBuffer? {
        let end = start + UInt64(chunk.readableBytes)
        let lower = max(start, skip)
        let upper = take.map { min(end, skip + $0) } ?? end
        guard lower < upper else { return nil }
        chunk.moveReaderIndex(forwardBy: Int(lower - start))
        return chunk.readSlice(length: Int(upper - lower))
    }
}

/// Where a transfer puts the body it keeps. `begin` starts (or restarts, on a retry) a body.
protocol BodySink: AnyObject, Sendable {
    func begin() async throws
    func append(_ buffer: ByteBuffer) async throws
    /// Bytes kept of the current body.
    var count: Int { get }
}

/// Keeps the body in memory: for playlists, keys, asset lists and artwork (all size-limited)
/// and for segments that must be decrypted whole.
final class MemoryBodySink: BodySink, Sendable {
    private let body = Mutex(Data())
    var data: Data { body.withLock { $0 } }
    var count: Int { body.withLock { $0.count } }
    func begin() async throws { body.withLock { $0.removeAll(keepingCapacity: true) } }
    func append(_ buffer: ByteBuffer) async throws { body.withLock { $0.append(contentsOf: buffer.readableBytesView) } }
}

/// Streams the body to `file.part` on the blocking-work pool, so a media file of any size
/// never sits in memory; `commit` renames it into place, `discard` removes it.
final class FileBodySink: BodySink, Sendable {
    private struct State {
        var handle: FileHandle?
        var count = 0
    }

    let file: URL
    private let state = Mutex(State())
    var count: Int { state.withLock { $0.count } }
    private var partURL: URL { file.appendingPathExtension("part") }

    init(file: URL) { self.file = file }

    func begin() async throws {
        let part = partURL
        let old = state.withLock { $0.handle }
        let handle = try await BlockingWork.run {
            try? old?.close()
            try FileManager.default.createDirectory(at: part.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: part.path, contents: nil) else {
                throw DownloadError.io(path: part.path, reason: "cannot create file")
            }
            return try FileHandle(forWritingTo: part)
        }
        state.withLock { $0 = State(handle: handle, count: 0) }
    }

    func append(_ buffer: ByteBuffer) async throws {
        guard let handle = state.withLock({ $0.handle }) else { return }
        let part = partURL
        let bytes = Data(buffer.readableBytesView)
        try await BlockingWork.run {
            do { try handle.write(contentsOf: bytes) } catch {
                throw DownloadError.io(path: part.path, reason: error.localizedDescription)
            }
        }
        state.withLock { $0.count += bytes.count }
    }

    /// Closes the part file and renames it to `file`; returns its size.
    func commit() async throws -> Int64 {
        let part = partURL
        let file = self.file
        let (handle, count) = state.withLock { state in
            defer { state.handle = nil }
            return (state.handle, state.count)
        }
        try await BlockingWork.run {
            try handle?.close()
            if rename(part.path, file.path) != 0 {
                throw DownloadError.io(path: file.path, reason: String(cString: strerror(errno)))
            }
        }
        return Int64(count)
    }

    func discard() async {
        let part = partURL
        let handle = state.withLock { state in
            defer { state.handle = nil }
            return state.handle
        }
        // Detached, so that it runs in a cancelled task too (the blocking pool skips work a
        // cancelled task asks for): a fetch cancelled because another failed leaves no `.part`.
        await Task.detached {
            try? await BlockingWork.run {
                try? handle?.close()
                try? FileManager.default.removeItem(at: part)
            }
        }.value
    }
}
