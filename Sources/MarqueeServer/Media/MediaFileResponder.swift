import Foundation
import Hummingbird
import Library
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
// `stat`'s fields come from the clang module that first included <sys/stat.h>: Dispatch's on Linux.
import CDispatch
import Glibc
/// The C `stat` structure (`Glibc.stat`, not the function of the same name).
typealias FileStatus = Glibc.stat
#elseif canImport(Darwin)
import Darwin
typealias FileStatus = Darwin.stat
#endif

/// Serves files from asset bundles and the web root: right content types, byte ranges,
/// ETags and caching headers.
///
/// Finding, checking, opening and reading a file happens on NIO's thread pool, never on an
/// event loop or the cooperative pool. What it learns is kept in `ServedFileCache` — the
/// resolved path, size, validators, ready-made headers and either the bytes (files up to
/// `largestFileInMemory`, 8 MiB by default: segments, init sections, images, playlists) or an
/// open descriptor (larger files) — and rechecked against the file system at most once a
/// second, so a hot file is answered without walking, opening or reading anything. Larger
/// files and their byte ranges go out with `sendfile(2)` through the connection's
/// `FileRegionSink`, as nginx sends them. (Over loopback, writing a cached segment from
/// memory costs the kernel about half what `sendfile` does for the same bytes, measured with
/// scripts/bench/server.sh; see docs/server-benchmarks.md.)
final class MediaFileResponder: Sendable {
    private let threadPool: NIOThreadPool
    let cache: ServedFileCache
    /// How long a cached file is trusted before it is checked again (`ServedFileCache.trust`).
    static let revalidateAfter: Duration = .seconds(1)

    /// Files up to this size are kept in memory; larger ones are kept open and sent with `sendfile`.
    let largestFileInMemory: Int
    /// Requests answered from the cache by `CachedMediaHandler`, without the router (tests, diagnostics).
    let answeredOnEventLoop = Atomic<Int>(0)

    init(threadPool: NIOThreadPool = .singleton, cacheBytes: Int = 256 << 20, largestFileInMemory: Int = 8 << 20) {
        self.threadPool = threadPool
        self.largestFileInMemory = largestFileInMemory
        cache = ServedFileCache(limit: cacheBytes)
    }

    /// Answers `request` with the file `locate` finds (run on the thread pool; `nil` for
    /// "no such file", which includes paths that would leave their folder). `key` names the
    /// file for the cache.
    func respond(
        key: String, request: Request, context: MarqueeRequestContext, kind: @autoclosure () -> ServedFileKind,
        locate: @escaping @Sendable () -> URL?
    ) async throws -> Response {
        let sink = context.channel.flatMap(FileRegionSink.for)
        let file: ServedFile
        if let fresh = cache.fresh(key) {
            file = fresh
        } else {
            let cache = cache
            let kind = kind()
            let largestFileInMemory = largestFileInMemory
            let found: ServedFile? = try await threadPool.runIfActive {
                guard let url = locate(), let info = Self.fileInfo(url.path) else { return nil }
                if let known = cache.any(key), known.url == url, known.size == info.size, known.modified == info.modified {
                    return cache.refresh(key)
                }
                let bytes: ByteBuffer? =
                    info.size <= largestFileInMemory
                    ? ByteBuffer(bytes: try Data(contentsOf: url)) : nil
                let opened = bytes == nil ? OpenFile(path: url.path) : nil
                let served = ServedFile(
                    url: url, size: info.size, modified: info.modified, kind: kind, bytes: bytes,
                    file: opened, checked: .now)
                cache.store(served, for: key)
                return served
            }
            guard let found else {
                cache.remove(key)
                throw APIError(.notFound, "No such file")
            }
            file = found
        }
        return try await response(for: file, request: request, context: context, sink: sink)
    }

    /// Answers `request` with a file a remote store holds in memory (`MediaStore.memoryCopy`),
    /// keeping it in the cache under `key` so the next requests for it are answered on the
    /// event loop (`CachedMediaAnswers`) for as long as the cache trusts an entry.
    func respond(
        key: String, memoryCopy copy: MediaMemoryCopy, request: Request, context: MarqueeRequestContext, kind: ServedFileKind
    ) async throws -> Response {
        let file: ServedFile
        if let known = cache.any(key), known.bytes?.readableBytes == copy.data.count, known.eTag == copy.eTag {
            file = cache.refresh(key) ?? known
        } else {
            file = ServedFile(memoryCopy: ByteBuffer(bytes: copy.data), eTag: copy.eTag, kind: kind, checked: .now)
            cache.store(file, for: key)
        }
        return try await response(for: file, request: request, context: context, sink: nil)
    }

    private func response(
        for file: ServedFile, request: Request, context: some RequestContext,
        sink: FileRegionSink?
    ) async throws -> Response {
        switch FileAnswer(file: file, method: request.method, headers: request.headers) {
        case .notModified(let headers):
            return Response(status: .notModified, headers: headers)
        case .headOnly(let headers):
            return Response(status: .ok, headers: headers)
        case .unsatisfiable(let size):
            throw APIError(
                .rangeNotSatisfiable, "Range not satisfiable for a file of \(size) bytes",
                headers: [.contentRange: "bytes */\(size)"])
        case .bytes(let status, let headers, let buffer):
            return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
        case .fromFile(let status, let headers, let range):
            if let open = file.file, let sink, file.size > 0 {
                let bytes = range ?? 0...(file.size - 1)
                return Self.region(status, headers: headers, of: open, from: bytes.lowerBound, count: bytes.count, to: sink)
            }
            let body =
                if let range {
                    try await FileIO(threadPool: threadPool).loadFile(path: file.url.path, range: range, context: context)
                } else {
                    try await FileIO(threadPool: threadPool).loadFile(path: file.url.path, context: context)
                }
            return Response(status: status, headers: headers, body: body)
        }
    }

    /// A response whose body the connection's sink sends straight from the file.
    private static func region(
        _ status: HTTPResponse.Status, headers: HTTPFields, of file: OpenFile, from offset: Int,
        count: Int, to sink: FileRegionSink
    ) -> Response {
        var headers = headers
        headers[FileRegionSink.headerName] = sink.register(file, offset: offset, count: count)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer()))
    }

    struct FileInfo: Sendable {
        var size: Int
        var modified: Date
    }

    /// `stat(2)` of a regular file (following symlinks); `nil` when missing or not a regular file.
    static func fileInfo(_ path: String) -> FileInfo? {
        var status = FileStatus()
        guard systemStat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        let seconds = Double(modified.tv_sec) + Double(modified.tv_nsec) / 1_000_000_000
        return FileInfo(size: Int(status.st_size), modified: Date(timeIntervalSince1970: seconds))
    }
}

/// A file as last seen, with the headers every response for it carries (made once, when
/// the file is first seen, not per request).
struct ServedFile: Sendable {
    let url: URL
    let size: Int
    let modified: Date
    let kind: ServedFileKind
    /// The whole file, when small enough to keep in memory.
    let bytes: ByteBuffer?
    /// The file, open, when it is larger (sent with `sendfile`).
    let file: OpenFile?
    var checked: ContinuousClock.Instant
    let eTag: String
    let headers: HTTPFields

    init(
        url: URL, size: Int, modified: Date, kind: ServedFileKind, bytes: ByteBuffer?, file: OpenFile?,
        checked: ContinuousClock.Instant, eTag storeETag: String? = nil
    ) {
        self.url = url
        self.size = size
        self.modified = modified
        self.kind = kind
        self.bytes = bytes
        self.file = file
        self.checked = checked
        eTag = storeETag ?? "\"\(String(size, radix: 16))-\(String(Int64(modified.timeIntervalSince1970 * 1000), radix: 16))\""
        var headers = HTTPFields()
        headers.reserveCapacity(8)
        headers[.contentType] = kind.contentType
        headers[.cacheControl] = kind.cacheControl
        headers[.acceptRanges] = "bytes"
        headers[.eTag] = eTag
        if storeETag == nil { headers[.lastModified] = HTTPDate.format(modified) }
        self.headers = headers
    }
}

extension ServedFile {
    /// A file a remote store holds in memory: its validator is the store's (so every node
    /// gives the same), with no `Last-Modified` (the store's time is not kept).
    init(memoryCopy bytes: ByteBuffer, eTag: String?, kind: ServedFileKind, checked: ContinuousClock.Instant) {
        self.init(
            url: URL(fileURLWithPath: "/dev/null"), size: bytes.readableBytes, modified: Date(timeIntervalSince1970: 0), kind: kind,
            bytes: bytes, file: nil, checked: checked, eTag: eTag)
    }
}

/// Files by request key, bounded in bytes kept in memory and in files kept open, oldest
/// stored evicted first.
final class ServedFileCache: Sendable {
    /// Open descriptors kept at most (a file being sent stays open until it is sent).
    static let mostOpenFiles = 256

    private struct Entries {
        let limit: Int
        var files: [String: ServedFile] = [:]
        var order: [String] = []
        var total = 0
        var openFiles = 0
        var trusted = MediaFileResponder.revalidateAfter

        mutating func remove(_ key: String) {
            guard let old = files.removeValue(forKey: key) else { return }
            forget(old)
            order.removeAll { $0 == key }
        }

        mutating func forget(_ entry: ServedFile) {
            total -= entry.bytes?.readableBytes ?? 0
            openFiles -= entry.file == nil ? 0 : 1
        }
    }

    private let entries: Mutex<Entries>

    init(limit: Int) {
        entries = Mutex(Entries(limit: limit))
    }

    /// How long an entry is trusted after it was checked against the file system: one second
    /// unless changed here (a test about something else lengthens it, so that a slow machine
    /// does not send a request back to the router to check the file again).
    var trust: Duration {
        get { entries.withLock { $0.trusted } }
        set { entries.withLock { $0.trusted = newValue } }
    }

    /// The entry when it was checked against the file system recently enough to trust.
    func fresh(_ key: String) -> ServedFile? {
        entries.withLock { entries in
            guard let entry = entries.files[key], entry.checked.duration(to: .now) < entries.trusted else { return nil }
            return entry
        }
    }

    func any(_ key: String) -> ServedFile? {
        entries.withLock { $0.files[key] }
    }

    /// Marks an unchanged entry as just checked.
    func refresh(_ key: String) -> ServedFile? {
        entries.withLock { entries in
            entries.files[key]?.checked = .now
            return entries.files[key]
        }
    }

    func store(_ file: ServedFile, for key: String) {
        entries.withLock { entries in
            entries.remove(key)
            entries.files[key] = file
            entries.order.append(key)
            entries.total += file.bytes?.readableBytes ?? 0
            entries.openFiles += file.file == nil ? 0 : 1
            while entries.total > entries.limit || entries.openFiles > Self.mostOpenFiles, let evicted = entries.order.first {
                entries.order.removeFirst()
                if let old = entries.files.removeValue(forKey: evicted) { entries.forget(old) }
            }
        }
    }

    func remove(_ key: String) {
        entries.withLock { $0.remove(key) }
    }
}

/// The C `stat(2)` call (a free function, so the name does not collide with the struct).
private func systemStat(_ path: String, _ status: inout FileStatus) -> Int32 {
    stat(path, &status)
}
