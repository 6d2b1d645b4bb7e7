import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// Serves files from asset bundles: right content types, byte ranges, ETags and caching.
///
/// File system calls run on NIO's thread pool, never on an event loop or the cooperative
/// pool. Small immutable files (segments, init sections, images) are kept in a bounded
/// in-memory cache keyed by path, size and modification time, since they are read far more
/// often than they change — which they never do once packaged.
final class MediaFileResponder: Sendable {
    private let threadPool: NIOThreadPool
    private let cache: SegmentCache

    init(threadPool: NIOThreadPool = .singleton, cacheBytes: Int = 256 << 20) {
        self.threadPool = threadPool
        cache = SegmentCache(limit: cacheBytes)
    }

    struct FileInfo: Sendable {
        var size: Int
        var modified: Date
        var eTag: String { "\"\(String(size, radix: 16))-\(String(Int(modified.timeIntervalSince1970 * 1000), radix: 16))\"" }
    }

    func respond(file url: URL, request: Request, context: some RequestContext, kind overrideKind: ServedFileKind? = nil) async throws -> Response {
        let path = url.path
        guard let info = try await threadPool.runIfActive({ Self.stat(path) }) else {
            throw APIError(.notFound, "No such file: \(url.lastPathComponent)")
        }
        let kind = overrideKind ?? ServedFileKind.forExtension(url.pathExtension)
        var headers = HTTPFields()
        headers[.contentType] = kind.contentType
        headers[.cacheControl] = kind.cacheControl
        headers[.acceptRanges] = "bytes"
        headers[.eTag] = info.eTag
        headers[.lastModified] = Self.httpDate(info.modified)

        if let match = request.headers[.ifNoneMatch], match == info.eTag || match == "*" {
            return Response(status: .notModified, headers: headers)
        }
        var range = ByteRangeRequest(header: request.headers[.range], size: info.size)
        if let ifRange = request.headers[.ifRange], ifRange != info.eTag { range = .whole }
        if request.method == .head {
            headers[.contentLength] = String(info.size)
            return Response(status: .ok, headers: headers)
        }

        let body: ByteBuffer
        if info.size <= SegmentCache.largestCachedFile {
            body = try await wholeFile(path: path, info: info)
        } else {
            switch range {
            case .unsatisfiable:
                throw APIError(.rangeNotSatisfiable, "Range not satisfiable for a file of \(info.size) bytes",
                               headers: [.contentRange: "bytes */\(info.size)"])
            case .partial(let bytes):
                headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(info.size)"
                headers[.contentLength] = String(bytes.count)
                let stream = try await FileIO(threadPool: threadPool).loadFile(path: path, range: bytes, context: context)
                return Response(status: .partialContent, headers: headers, body: stream)
            case .whole:
                headers[.contentLength] = String(info.size)
                let stream = try await FileIO(threadPool: threadPool).loadFile(path: path, context: context)
                return Response(status: .ok, headers: headers, body: stream)
            }
        }
        switch range {
        case .unsatisfiable:
            throw APIError(.rangeNotSatisfiable, "Range not satisfiable for a file of \(info.size) bytes",
                           headers: [.contentRange: "bytes */\(info.size)"])
        case .partial(let bytes):
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(info.size)"
            return Response(status: .partialContent, headers: headers,
                            body: .init(byteBuffer: body.getSlice(at: body.readerIndex + bytes.lowerBound, length: bytes.count) ?? body))
        case .whole:
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        }
    }

    private func wholeFile(path: String, info: FileInfo) async throws -> ByteBuffer {
        let key = SegmentCache.Key(path: path, size: info.size, modified: info.modified)
        if let cached = cache.value(for: key) { return cached }
        let buffer = try await threadPool.runIfActive { () throws -> ByteBuffer in
            let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
            return ByteBuffer(bytes: data)
        }
        cache.store(buffer, for: key)
        return buffer
    }

    static func stat(_ path: String) -> FileInfo? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue
        else { return nil }
        return FileInfo(size: size, modified: attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0))
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

/// A bounded, least-recently-stored cache of whole small files.
final class SegmentCache: @unchecked Sendable {
    struct Key: Hashable {
        var path: String
        var size: Int
        var modified: Date
    }

    static let largestCachedFile = 8 << 20
    private let lock = NSLock()
    private let limit: Int
    private var entries: [Key: ByteBuffer] = [:]
    private var order: [Key] = []
    private var total = 0

    init(limit: Int) {
        self.limit = limit
    }

    func value(for key: Key) -> ByteBuffer? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    func store(_ buffer: ByteBuffer, for key: Key) {
        lock.lock()
        defer { lock.unlock() }
        guard entries[key] == nil, buffer.readableBytes <= limit else { return }
        entries[key] = buffer
        order.append(key)
        total += buffer.readableBytes
        while total > limit, !order.isEmpty {
            let evicted = order.removeFirst()
            total -= entries.removeValue(forKey: evicted)?.readableBytes ?? 0
        }
    }
}
