import BlockingWork
import Foundation
import NIOCore
import NIOPosix

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
final class MemoryBodySink: BodySink, @unchecked Sendable {
    // One transfer at a time uses a sink, from one task.
    private(set) var data = Data()
    var count: Int { data.count }
    func begin() async throws { data.removeAll(keepingCapacity: true) }
    func append(_ buffer: ByteBuffer) async throws { data.append(contentsOf: buffer.readableBytesView) }
}

/// Streams the body to `file.part` on NIO's blocking-I/O thread pool, so a media file of any
/// size never sits in memory; `commit` renames it into place, `discard` removes it.
final class FileBodySink: BodySink, @unchecked Sendable {
    let file: URL
    private var handle: FileHandle?
    private(set) var count = 0
    private var partURL: URL { file.appendingPathExtension("part") }

    init(file: URL) { self.file = file }

    func begin() async throws {
        let part = partURL
        let old = handle
        handle = try await BlockingWork.run {
            try? old?.close()
            try FileManager.default.createDirectory(at: part.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: part.path, contents: nil) else {
                throw DownloadError.io(path: part.path, reason: "cannot create file")
            }
            return try FileHandle(forWritingTo: part)
        }
        count = 0
    }

    func append(_ buffer: ByteBuffer) async throws {
        guard let handle else { return }
        let part = partURL
        let bytes = Data(buffer.readableBytesView)
        try await BlockingWork.run {
            do { try handle.write(contentsOf: bytes) } catch {
                throw DownloadError.io(path: part.path, reason: error.localizedDescription)
            }
        }
        count += bytes.count
    }

    /// Closes the part file and renames it to `file`; returns its size.
    func commit() async throws -> Int64 {
        let part = partURL, file = self.file, handle = self.handle
        self.handle = nil
        try await BlockingWork.run {
            try handle?.close()
            if rename(part.path, file.path) != 0 {
                throw DownloadError.io(path: file.path, reason: String(cString: strerror(errno)))
            }
        }
        return Int64(count)
    }

    func discard() async {
        let part = partURL, handle = self.handle
        self.handle = nil
        try? await BlockingWork.run {
            try? handle?.close()
            try? FileManager.default.removeItem(at: part)
        }
    }
}
