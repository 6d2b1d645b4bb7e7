import AsyncHTTPClient
import BlockingWork
public import Foundation
import HLS
public import Library
import NIOCore
import NIOFoundationCompat
public import ObjectStorage
import Synchronization

/// Packaged media in an S3-compatible bucket (AWS S3, SeaweedFS, MinIO), for server nodes
/// and workers on several machines.
///
/// Keys mirror the media folder: `PREFIX/ASSET/master.m3u8`, `PREFIX/ASSET/video/…`, and
/// kept uploads at `PREFIX/sources/UPLOAD/NAME`. A worker packages into a local staging
/// folder and `publish` uploads it (multipart with an MD5 per part for large files, each
/// request retried), removes objects the new bundle no longer has, and frees the folder. Code
/// that parses playlists reads them from a local copy (`playlistFolder`) that is fetched on
/// first use and checked against the bucket's `master.m3u8` ETag every few seconds.
public final class S3MediaStore: MediaStore {
    public let client: S3Client
    public let location: S3Location
    public let delivery: MediaDelivery
    /// Local folders: bundles being packaged, and copies of published playlists.
    let stagingRoot: URL
    let playlistRoot: URL
    /// How many files go up at once when publishing.
    let uploadConcurrency: Int
    /// How long a playlist copy or a listing is trusted before the bucket is asked again.
    let freshness: Duration
    private let listings = Mutex<[String: (ContinuousClock.Instant, Set<String>)]>([:])
    private let playlistChecks = Mutex<[String: (ContinuousClock.Instant, String?)]>([:])
    /// The playlist copies being fetched, by asset: a request that needs one while it is being
    /// fetched waits for that fetch instead of fetching again and replacing the folder under it.
    private let playlistFetches = Mutex<[String: Task<URL, any Error>]>([:])
    /// Segments and other media files served recently, kept in memory (`HotMediaCache`).
    public let hotFiles: HotMediaCache

    public init(
        location: S3Location, delivery: MediaDelivery = .proxy, workDirectory: URL, client: S3Client? = nil,
        uploadConcurrency: Int = 4, freshness: Duration = .seconds(5), hotFileBytes: Int = 256 << 20
    ) {
        self.location = location
        self.delivery = delivery
        self.client =
            client
            ?? S3Client(
                bucket: location.bucket, endpoint: location.endpoint, region: location.region, accessKeyID: location.accessKeyID,
                secretAccessKey: location.secretAccessKey, sessionToken: location.sessionToken)
        stagingRoot = workDirectory.appendingPathComponent("staging")
        playlistRoot = workDirectory.appendingPathComponent("playlists")
        self.uploadConcurrency = max(1, uploadConcurrency)
        self.freshness = freshness
        hotFiles = HotMediaCache(capacity: hotFileBytes)
    }

    public var description: String { location.description }
    public var isLocal: Bool { false }

    /// The key of a file in an asset's media.
    func key(_ path: String, of assetID: String) -> String { location.key("\(assetID)/\(path)") }
    func assetPrefix(_ assetID: String) -> String { location.key("\(assetID)/") }

    /// Checks that the bucket exists and the credentials may read it, with a clear error
    /// naming the bucket when not (asked once at start, so a misconfigured node fails early).
    /// An endpoint that does not answer within `limit` is an error too: the HTTP client keeps
    /// retrying a refused connection until its request deadline, minutes later.
    public func checkAccess(limit: Duration = .seconds(10)) async throws {
        let client = client
        let key = location.key(".marquee-access-check")
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        _ = try await client.get(key)
                    } catch let error as S3Error where error.code == "NoSuchKey" || (error.status == 404 && error.code != "NoSuchBucket") {
                        return
                    }
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    throw S3MediaStoreError.noAnswer(limit)
                }
                try await group.next()
                group.cancelAll()
            }
        } catch let error as S3MediaStoreError {
            throw S3MediaStoreError.unusableBucket(location.description, error.description)
        } catch {
            throw S3MediaStoreError.unusableBucket(location.description, String(describing: error))
        }
    }

    /// Whether the bucket answers now (`/readyz`): one HEAD of a key that need not exist.
    public func checkReachable() async throws {
        _ = try await outage { try await client.head(location.key(".marquee-access-check")) }
    }

    /// `body`'s result; a bucket that did not answer (no connection: status 0) or said it
    /// cannot serve now (5xx, or 429 after the client's retries) comes out as
    /// `ServiceUnavailable`, which the server answers 503 with a sentence — never the S3
    /// error's text, which names the bucket and the key layout.
    func outage<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as S3Error where error.status == 0 || error.status >= 500 || error.status == 429 {
            throw ServiceUnavailable(.mediaStorage, detail: error.description)
        }
    }

    // MARK: Publishing

    public func stagingFolder(for assetID: String) -> URL {
        stagingRoot.appendingPathComponent(assetID)
    }

    public func discardStaging() async {
        let root = stagingRoot
        _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: root) }
    }

    public func publish(assetID: String) async throws {
        guard LibraryLocation.isSafeComponent(assetID) else { throw LibraryError.assetNotFound(assetID) }
        let folder = stagingFolder(for: assetID)
        let files = try await BlockingWork.run { try Self.regularFiles(in: folder) }
        // Segments first, playlists last: a reader that finds the new master finds what it names.
        let ordered = files.sorted { Self.isPlaylist($0) == Self.isPlaylist($1) ? $0 < $1 : !Self.isPlaylist($0) }
        let (client, concurrency) = (client, uploadConcurrency)
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func addNext() {
                guard next < ordered.count else { return }
                let path = ordered[next]
                next += 1
                let key = key(path, of: assetID)
                group.addTask {
                    try await client.putFile(folder.appendingPathComponent(path), key: key, contentType: Self.contentType(of: path))
                }
            }
            for _ in 0..<concurrency { addNext() }
            while try await group.next() != nil { addNext() }
        }
        // What an earlier bundle of this asset had and this one has not.
        let published = Set(files)
        for object in try await client.list(prefix: assetPrefix(assetID)) {
            let path = String(object.key.dropFirst(assetPrefix(assetID).count))
            if !published.contains(path) { try await client.delete(object.key) }
        }
        // This node keeps the playlists it just made; the staging folder goes.
        let copy = playlistRoot.appendingPathComponent(assetID)
        let masterETag = try await client.head(key(BundleLayout.multivariantPlaylist, of: assetID))?.etag
        try await BlockingWork.run {
            try? FileManager.default.removeItem(at: copy)
            for path in files where Self.isPlaylist(path) {
                let target = copy.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: folder.appendingPathComponent(path), to: target)
            }
            try? FileManager.default.removeItem(at: folder)
        }
        listings.withLock { $0[assetID] = (.now, published) }
        playlistChecks.withLock { $0[assetID] = (.now, masterETag) }
        hotFiles.forget(prefix: assetPrefix(assetID))
    }

    // MARK: Files

    public func files(of assetID: String) async throws -> [String] {
        guard LibraryLocation.isSafeComponent(assetID) else { return [] }
        return try await listing(of: assetID).sorted()
    }

    public func contains(_ path: String, of assetID: String) async -> Bool {
        guard MediaPath.components(path, assetID: assetID) != nil else { return false }
        return (try? await listing(of: assetID).contains(path)) ?? false
    }

    /// The asset's published paths, from a listing at most `freshness` old (an empty one is
    /// never kept: the asset may be published any moment).
    func listing(of assetID: String) async throws -> Set<String> {
        let now = ContinuousClock.now
        if let (at, paths) = listings.withLock({ $0[assetID] }), now - at < freshness * 6 { return paths }
        let prefix = assetPrefix(assetID)
        let paths = Set(try await client.list(prefix: prefix).map { String($0.key.dropFirst(prefix.count)) })
        listings.withLock { $0[assetID] = paths.isEmpty ? nil : (now, paths) }
        return paths
    }

    public func write(_ data: Data, to path: String, of assetID: String) async throws {
        guard MediaPath.components(path, assetID: assetID) != nil else { throw LibraryError.assetNotFound(assetID) }
        try await client.put(data, key: key(path, of: assetID), contentType: Self.contentType(of: path))
        listings.withLock { $0[assetID] = nil }
        hotFiles.forget(prefix: key(path, of: assetID))
    }

    public func remove(_ path: String, of assetID: String) async throws {
        guard MediaPath.components(path, assetID: assetID) != nil else { return }
        try await client.delete(key(path, of: assetID))
        listings.withLock { $0[assetID] = nil }
        hotFiles.forget(prefix: key(path, of: assetID))
    }

    public func removeMedia(of assetID: String) async throws {
        guard LibraryLocation.isSafeComponent(assetID) else { return }
        let client = client
        try await withThrowingTaskGroup(of: Void.self) { group in
            for object in try await client.list(prefix: assetPrefix(assetID)) {
                group.addTask { try await client.delete(object.key) }
            }
            try await group.waitForAll()
        }
        listings.withLock { $0[assetID] = nil }
        playlistChecks.withLock { $0[assetID] = nil }
        hotFiles.forget(prefix: assetPrefix(assetID))
        let (staging, copy) = (stagingFolder(for: assetID), playlistRoot.appendingPathComponent(assetID))
        _ = try? await BlockingWork.run {
            try? FileManager.default.removeItem(at: staging)
            try? FileManager.default.removeItem(at: copy)
        }
    }

    // MARK: Reading

    public func playlistFolder(for assetID: String) async throws -> URL {
        guard LibraryLocation.isSafeComponent(assetID) else { throw LibraryError.assetNotFound(assetID) }
        let copy = playlistRoot.appendingPathComponent(assetID)
        if let checked = playlistChecks.withLock({ $0[assetID] }), ContinuousClock.now - checked.0 < freshness { return copy }
        // One check (and fetch) per asset at a time: two requests of one page that both found the
        // copy stale would otherwise each replace the folder while the other reads from it.
        let fetch = playlistFetches.withLock { fetches in
            if let running = fetches[assetID] { return running }
            let task = Task {
                defer { self.playlistFetches.withLock { $0[assetID] = nil } }
                return try await self.refreshPlaylists(of: assetID, into: copy)
            }
            fetches[assetID] = task
            return task
        }
        do {
            return try await outage { try await fetch.value }
        } catch is ServiceUnavailable where FileManager.default.fileExists(atPath: copy.path) {
            // The bucket does not answer: the copy fetched before still describes the media, and
            // is trusted for another `freshness` (requests in between do not wait for the bucket).
            playlistChecks.withLock { checks in checks[assetID] = checks[assetID].map { (.now, $0.1) } }
            return copy
        }
    }

    /// Checks the local copy of an asset's playlists against `master.m3u8`'s ETag and fetches
    /// them again when it changed (or on first use); returns the copy's folder.
    private func refreshPlaylists(of assetID: String, into copy: URL) async throws -> URL {
        let now = ContinuousClock.now
        let checked = playlistChecks.withLock { $0[assetID] }
        if let checked, now - checked.0 < freshness { return copy }
        let current = try await client.head(key(BundleLayout.multivariantPlaylist, of: assetID))?.etag
        if let checked, checked.1 == current, current != nil {
            playlistChecks.withLock { $0[assetID] = (now, current) }
            return copy
        }
        // First use on this node, or the bundle changed: fetch its playlists and descriptions.
        let prefix = assetPrefix(assetID)
        let wanted = try await client.list(prefix: prefix).map { String($0.key.dropFirst(prefix.count)) }.filter(Self.isPlaylist)
        let fresh = playlistRoot.appendingPathComponent(".\(assetID)-\(UUID().uuidString.prefix(8))")
        for path in wanted where MediaPath.components(path, assetID: assetID) != nil {
            let object = try await client.get(key(path, of: assetID))
            try await BlockingWork.run {
                let target = fresh.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try object.data.write(to: target)
            }
        }
        try await BlockingWork.run {
            try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
            // The old copy is moved aside, not deleted, before the new one takes its name, so the
            // folder is missing only between two renames; then the old one goes.
            let old = self.playlistRoot.appendingPathComponent(".\(assetID)-old-\(UUID().uuidString.prefix(8))")
            let movedAside = (try? FileManager.default.moveItem(at: copy, to: old)) != nil
            if (try? FileManager.default.moveItem(at: fresh, to: copy)) == nil { try? FileManager.default.removeItem(at: fresh) }
            if movedAside { try? FileManager.default.removeItem(at: old) }
        }
        if !wanted.isEmpty { playlistChecks.withLock { $0[assetID] = (now, current) } }
        return copy
    }

    public func localFile(_ path: String, of assetID: String) -> URL? { nil }

    public func info(_ path: String, of assetID: String) async throws -> MediaFileInfo? {
        guard MediaPath.components(path, assetID: assetID) != nil else { return nil }
        if let entry = await hotFile(path, of: assetID)?.entry { return MediaFileInfo(size: entry.data.count, eTag: entry.eTag) }
        return try await outage { try await client.head(key(path, of: assetID)) }.map { MediaFileInfo(size: $0.size, eTag: $0.etag) }
    }

    public func read(_ path: String, of assetID: String, range: ClosedRange<Int>?) async throws -> MediaFileContents? {
        guard MediaPath.components(path, assetID: assetID) != nil else { return nil }
        do {
            let object = try await outage { try await client.get(key(path, of: assetID), range: range) }
            return MediaFileContents(data: object.data, totalSize: object.totalSize ?? object.data.count, eTag: object.etag)
        } catch let error as S3Error where error.status == 404 {
            return nil
        }
    }

    public func stream(_ path: String, of assetID: String, range: ClosedRange<Int>?, ifMatch: String?) async throws -> MediaFileStream? {
        guard MediaPath.components(path, assetID: assetID) != nil else { return nil }
        let hot = await hotFile(path, of: assetID)
        if let hot, let answer = Self.answer(from: hot.entry, range: range, ifMatch: ifMatch) { return answer }
        let object: S3Client.ObjectStream
        do {
            guard let found = try await outage({ try await client.stream(key(path, of: assetID), range: range, ifMatch: ifMatch) }) else {
                return nil
            }
            object = found
        } catch let error as S3Error where error.status == 412 {
            throw MediaFileChanged(path: path, assetID: assetID)
        }
        let chunks = object.body.map { Data(buffer: $0, byteTransferStrategy: .noCopy) }
        // A whole file read while its bundle's generation is known is kept as it passes.
        if let generation = hot?.generation, range == nil, object.totalSize <= hotFiles.largestFile {
            let (cache, key, eTag) = (hotFiles, key(path, of: assetID), object.etag)
            return MediaFileStream(
                totalSize: object.totalSize, range: object.range, eTag: eTag,
                chunks: KeepingChunks(base: chunks, expected: object.totalSize) { data in
                    cache.keep(HotMediaCache.Entry(data: data, eTag: eTag, generation: generation), as: key)
                })
        }
        return MediaFileStream(totalSize: object.totalSize, range: object.range, eTag: object.etag, chunks: chunks)
    }

    public func memoryCopy(_ path: String, of assetID: String) async -> MediaMemoryCopy? {
        guard MediaPath.components(path, assetID: assetID) != nil, let entry = await hotFile(path, of: assetID)?.entry else { return nil }
        return MediaMemoryCopy(data: entry.data, eTag: entry.eTag)
    }

    /// The asset's bundle generation (its `master.m3u8`'s ETag, checked every `freshness`
    /// with the playlists) and the cached copy of `path` in it, if any. Playlists are never
    /// cached here (this node keeps its own copies of them); `nil` generation means no caching.
    private func hotFile(_ path: String, of assetID: String) async -> (generation: String, entry: HotMediaCache.Entry?)? {
        guard hotFiles.capacity > 0, !Self.isPlaylist(path) else { return nil }
        guard (try? await playlistFolder(for: assetID)) != nil, let generation = playlistChecks.withLock({ $0[assetID]?.1 }) else { return nil }
        return (generation, hotFiles.entry(key(path, of: assetID), generation: generation))
    }

    /// A cached file as the answer to a read: whole, or the asked range when it lies inside the
    /// file; `nil` (ask the bucket) when the version asked for is another or the range is not inside.
    static func answer(from entry: HotMediaCache.Entry?, range: ClosedRange<Int>?, ifMatch: String?) -> MediaFileStream? {
        guard let entry, ifMatch == nil || ifMatch == entry.eTag else { return nil }
        let size = entry.data.count
        guard let range else {
            return MediaFileStream(totalSize: size, range: size > 0 ? 0...(size - 1) : nil, eTag: entry.eTag, chunks: CachedChunks(data: entry.data))
        }
        guard range.lowerBound >= 0, range.upperBound < size else { return nil }
        let start = entry.data.startIndex + range.lowerBound
        let slice = entry.data.subdata(in: start..<(start + range.count))
        return MediaFileStream(totalSize: size, range: range, eTag: entry.eTag, chunks: CachedChunks(data: slice))
    }

    public var directOrigin: String? {
        let url: URL
        switch delivery {
        case .proxy: return nil
        case .presigned: url = client.endpoint
        case .cdn(let base): url = base
        }
        guard let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }

    public func directURL(for path: String, of assetID: String) -> URL? {
        guard MediaPath.components(path, assetID: assetID) != nil else { return nil }
        switch delivery {
        case .proxy:
            return nil
        case .presigned(let expires):
            return client.presignedURL(for: key(path, of: assetID), expires: expires)
        case .cdn(let base):
            let relative = "\(assetID)/\(path)".split(separator: "/").map { SigV4Signer.encode(String($0), keepSlash: false) }.joined(separator: "/")
            return URL(string: base.absoluteString.trimmingSuffix("/") + "/" + relative)
        }
    }

    // MARK: Sources

    /// `s3://bucket/prefix/sources/`: how the sources this store keeps are named on assets.
    var sourcePrefix: String { "s3://\(location.bucket)/\(location.key("sources/"))" }

    public func keepSource(_ file: URL, named name: String, id: String) async throws -> String {
        guard LibraryLocation.isSafeComponent(id), LibraryLocation.isSafeComponent(name) else {
            throw LibraryError.invalidRequest("Cannot keep a source named \(name)")
        }
        let folder = location.key("sources/\(id)/\(name)")
        let isFolder = try await BlockingWork.run {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        guard isFolder else {
            try await client.putFile(file, key: folder, contentType: Self.contentType(of: name))
            return sourcePrefix + "\(id)/\(name)"
        }
        // A folder (a downloaded HLS bundle): every file under it, and a name ending in "/".
        let files = try await BlockingWork.run { try Self.regularFiles(in: file) }
        let client = client
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func addNext() {
                guard next < files.count else { return }
                let path = files[next]
                next += 1
                group.addTask { try await client.putFile(file.appendingPathComponent(path), key: folder + "/" + path, contentType: Self.contentType(of: path)) }
            }
            for _ in 0..<uploadConcurrency { addNext() }
            while try await group.next() != nil { addNext() }
        }
        return sourcePrefix + "\(id)/\(name)/"
    }

    public func ownsSource(_ sourcePath: String) -> Bool {
        sourcePath.hasPrefix(sourcePrefix)
    }

    /// The key of a kept source (a folder's ends in "/"), checked to stay under `sources/`.
    func sourceKey(_ sourcePath: String) -> (key: String, name: String, isFolder: Bool)? {
        guard ownsSource(sourcePath) else { return nil }
        let isFolder = sourcePath.hasSuffix("/")
        let parts = sourcePath.dropFirst(sourcePrefix.count).split(separator: "/").map(String.init)
        guard parts.count == 2, parts.allSatisfy(LibraryLocation.isSafeComponent) else { return nil }
        return (location.key("sources/\(parts[0])/\(parts[1])") + (isFolder ? "/" : ""), parts[1], isFolder)
    }

    public func fetchSource(_ sourcePath: String, into scratch: URL) async throws -> URL? {
        guard let (key, name, isFolder) = sourceKey(sourcePath) else { return nil }
        let target = scratch.appendingPathComponent(name)
        guard isFolder else { return try await client.download(key, to: target) == nil ? nil : target }
        let objects = try await client.list(prefix: key)
        guard !objects.isEmpty else { return nil }
        for object in objects {
            let relative = String(object.key.dropFirst(key.count))
            guard let parts = MediaPath.components(relative, assetID: name) else { continue }
            try await client.download(object.key, to: parts.reduce(target) { $0.appendingPathComponent($1) })
        }
        return target
    }

    public func removeSource(_ sourcePath: String) async throws {
        guard let (key, _, isFolder) = sourceKey(sourcePath) else { return }
        guard isFolder else { return try await client.delete(key) }
        for object in try await client.list(prefix: key) { try await client.delete(object.key) }
    }

    // MARK: Helpers

    /// Playlists and JSON descriptions: what `playlistFolder` copies locally.
    static func isPlaylist(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".m3u8") || lower.hasSuffix(".json")
    }

    static func regularFiles(in folder: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw LibraryError.invalidRequest("Nothing was packaged in \(folder.path)")
        }
        let root = folder.standardizedFileURL.path + "/"
        var found: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let path = url.standardizedFileURL.path
            if path.hasPrefix(root) { found.append(String(path.dropFirst(root.count))) }
        }
        return found
    }

    /// The type stored with an object (what a presigned URL or CDN answers with).
    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "m3u8": "application/vnd.apple.mpegurl"
        case "m4s": "video/iso.segment"
        case "mp4", "m4v": "video/mp4"
        case "m4a": "audio/mp4"
        case "ts": "video/mp2t"
        case "aac": "audio/aac"
        case "vtt", "webvtt": "text/vtt; charset=utf-8"
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}

/// Why a bucket cannot hold the library's media.
public enum S3MediaStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case unusableBucket(String, String)
    case noAnswer(Duration)

    public var description: String {
        switch self {
        case .unusableBucket(let bucket, let why): "Cannot use \(bucket) for media: \(why)"
        case .noAnswer(let limit): "the endpoint did not answer within \(limit.components.seconds) s (is it running, and AWS_ENDPOINT_URL_S3 right?)"
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
