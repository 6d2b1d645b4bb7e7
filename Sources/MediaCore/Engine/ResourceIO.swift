import CFFmpeg
import Foundation

/// Connects a `ResourceLoader` to libavformat as a custom AVIO context.
///
/// libavformat calls the read and seek callbacks synchronously on a MediaCore pool thread;
/// each call waits for the loader's async read while watching the cancellation flag, so a
/// cancelled task ends a slow custom read too.
final class ResourceIO {
    let loader: any ResourceLoader
    let flag: CancellationFlag
    let length: Int64
    private(set) var position: Int64 = 0
    private let cache: ReadAheadCache?
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    /// The last error a loader threw, reported instead of FFmpeg's generic I/O error.
    private(set) var lastError: (any Error)?

    init(loader: any ResourceLoader, flag: CancellationFlag) throws {
        self.loader = loader
        self.flag = flag
        self.length = try Self.wait(flag) { try await loader.contentLength() }
        self.cache = loader.entireLengthAvailableOnDemand ? nil : ReadAheadCache(loader: loader)
        let bufferSize: Int32 = loader.entireLengthAvailableOnDemand ? 64 << 10 : 256 << 10
        guard let buffer = av_malloc(Int(bufferSize)) else {
            throw MediaError(.open, url: loader.resourceDescription, message: "out of memory")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0, opaque,
            { opaque, buffer, size in
                Unmanaged<ResourceIO>.fromOpaque(opaque!).takeUnretainedValue().read(buffer!, Int(size))
            },
            nil,
            { opaque, offset, whence in
                Unmanaged<ResourceIO>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence)
            })
        if context == nil {
            av_free(buffer)
            throw MediaError(.open, url: loader.resourceDescription, message: "out of memory")
        }
    }

    deinit {
        if context != nil {
            av_freep(&context!.pointee.buffer)
            avio_context_free(&context)
        }
    }

    private func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int32 {
        if flag.isCancelled { return LibAV.exit }
        if position >= length { return LibAV.eof }
        let want = Int(min(Int64(size), length - position))
        do {
            let offset = position
            let bytes: [UInt8]
            if let cache {
                let total = length
                bytes = try Self.wait(flag) { try await cache.read(offset: offset, length: want, contentLength: total) }
            } else {
                let loader = self.loader
                bytes = try Self.wait(flag) { try await loader.read(offset: offset, length: want) }
            }
            if bytes.isEmpty { return LibAV.eof }
            let count = min(bytes.count, want)
            bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) }
            position += Int64(count)
            return Int32(count)
        } catch is CancellationError {
            return LibAV.exit
        } catch {
            lastError = error
            return cff_error_eio()
        }
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        if whence & cff_seek_size() != 0 { return length }
        let base: Int64
        switch whence & 3 {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = length
        default: return Int64(cff_error_eio())
        }
        let target = base + offset
        guard target >= 0 else { return Int64(cff_error_eio()) }
        position = target
        return target
    }

    /// Runs async work from a pool thread and waits for it, giving up with
    /// `CancellationError` as soon as the flag is set.
    static func wait<T: Sendable>(_ flag: CancellationFlag, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let task = Task {
            do { box.set(.success(try await work())) } catch { box.set(.failure(error)) }
        }
        while true {
            if let result = box.wait(timeout: 0.05) { return try result.get() }
            if flag.isCancelled {
                task.cancel()
                throw CancellationError()
            }
        }
    }
}

/// A result handed from a task to a waiting thread.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<T, any Error>?

    func set(_ value: Result<T, any Error>) {
        condition.lock()
        result = value
        condition.signal()
        condition.unlock()
    }

    func wait(timeout: TimeInterval) -> Result<T, any Error>? {
        condition.lock()
        defer { condition.unlock() }
        if result == nil { _ = condition.wait(until: Date(timeIntervalSinceNow: timeout)) }
        return result
    }
}
