import BlockingWork
public import Foundation

/// Resumable uploads into the data directory, chunk by chunk, each chunk streamed to disk as
/// it arrives (never the whole file in memory).
///
/// An upload is `{id}.part` (the bytes received so far; its size is the offset a client
/// resumes from, so a crash or a dropped connection loses nothing already written) and
/// `{id}.json` (the file's name and expected length). `finish` moves the file into its own
/// folder under `uploaded/`, where it stays as its asset's source. Uploads nobody touched
/// for `abandonAfter` are removed by `removeAbandoned`.
public actor UploadStore {
    /// One upload as the API shows it.
    public struct Upload: Codable, Sendable, Hashable {
        public var id: String
        public var fileName: String
        /// The file's length, when the client said it.
        public var length: Int64?
        /// Bytes received so far.
        public var offset: Int64
        public var role: Asset.Role
        public var createdAt: Date
        public var updatedAt: Date

        public var isComplete: Bool { length.map { offset == $0 } ?? false }
    }

    struct Record: Codable {
        var fileName: String
        var length: Int64?
        var role: Asset.Role
        var createdAt: Date
    }

    public nonisolated let directory: URL
    public nonisolated let finishedDirectory: URL
    /// Bytes written to disk at a time; what one upload holds in memory at most.
    static let writeBatch = 1 << 20
    private var writing: Set<String> = []

    public init(directory: URL, finishedDirectory: URL) {
        self.directory = directory
        self.finishedDirectory = finishedDirectory
    }

    /// Starts an upload of `fileName`; `length` lets the server refuse early when the disk is too full.
    public func create(fileName: String, length: Int64?, role: Asset.Role = .feature, now: Date = Date()) async throws -> Upload {
        let name = try Self.safeFileName(fileName)
        if let length, length < 0 { throw UploadError.invalidRange("The length must not be negative") }
        let id = UUID().uuidString.lowercased()
        let record = Record(fileName: name, length: length, role: role, createdAt: now)
        let directory = directory
        try await BlockingWork.run {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if let length {
                let free = (try? FileManager.default.attributesOfFileSystem(forPath: directory.path)[.systemFreeSize] as? NSNumber)?.int64Value
                if let free, free < length { throw UploadError.insufficientSpace(needed: length, available: free) }
            }
            guard FileManager.default.createFile(atPath: directory.appendingPathComponent("\(id).part").path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            try Self.encoder.encode(record).write(to: directory.appendingPathComponent("\(id).json"), options: .atomic)
        }
        return Upload(id: id, fileName: name, length: length, offset: 0, role: role, createdAt: now, updatedAt: now)
    }

    /// The upload's state, with the offset a client should resume from.
    public func upload(id: String) async throws -> Upload {
        let (part, json) = try paths(id)
        return try await BlockingWork.run {
            guard let data = FileManager.default.contents(atPath: json.path),
                let record = try? Self.decoder.decode(Record.self, from: data),
                let attributes = try? FileManager.default.attributesOfItem(atPath: part.path)
            else { throw UploadError.notFound(id) }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            let modified = attributes[.modificationDate] as? Date ?? record.createdAt
            return Upload(
                id: id, fileName: record.fileName, length: record.length, offset: size, role: record.role,
                createdAt: record.createdAt, updatedAt: modified)
        }
    }

    /// Appends one chunk, streamed from `body`, at `range.start`, which must be the offset
    /// the server has. Whatever arrived before an error (a dropped connection) stays written.
    public func append<Body: AsyncSequence & Sendable>(id: String, range: ChunkRange, body: Body) async throws -> Upload
    where Body.Element == [UInt8] {
        guard !writing.contains(id) else { throw UploadError.busy(id) }
        writing.insert(id)
        defer { writing.remove(id) }
        let current = try await upload(id: id)
        let limit = try range.check(received: current.offset, declaredLength: current.length)
        let (part, _) = try paths(id)
        let handle = try await BlockingWork.run { () -> FileHandle in
            let handle = try FileHandle(forWritingTo: part)
            try handle.seek(toOffset: UInt64(current.offset))
            return handle
        }
        let writer = ChunkWriter(handle: handle)
        var written: Int64 = 0
        var pending: [UInt8] = []
        pending.reserveCapacity(Self.writeBatch)
        var failure: (any Error)?
        do {
            for try await bytes in body {
                if let limit, written + Int64(pending.count) + Int64(bytes.count) > limit {
                    let room = Int(limit - written - Int64(pending.count))
                    pending += bytes.prefix(max(0, room))
                    throw UploadError.chunkTooLong(limit: limit)
                }
                pending += bytes
                if pending.count >= Self.writeBatch {
                    written += Int64(pending.count)
                    try await writer.write(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            failure = error
        }
        do {
            if !pending.isEmpty { try await writer.write(pending) }
            try await writer.close()
        } catch {
            failure = failure ?? error
        }
        if let failure { throw failure }
        return try await upload(id: id)
    }

    /// Ends a complete upload: moves its file to a folder of its own and returns the file
    /// (named as the client named it), ready to be added to the library.
    /// While it runs the upload counts as busy, so a second `finish` (two racing `complete`
    /// calls), an append or a cancel gets `UploadError.busy` instead of racing the move.
    public func finish(id: String) async throws -> (URL, Upload) {
        guard !writing.contains(id) else { throw UploadError.busy(id) }
        writing.insert(id)
        defer { writing.remove(id) }
        let upload = try await upload(id: id)
        if let length = upload.length, upload.offset != length { throw UploadError.incomplete(received: upload.offset, length: length) }
        let (part, json) = try paths(id)
        let destination = finishedDirectory.appendingPathComponent(id).appendingPathComponent(Self.diskName(upload.fileName))
        try await BlockingWork.run {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: part, to: destination)
            try? FileManager.default.removeItem(at: json)
        }
        return (destination, upload)
    }

    /// Cancels an upload and deletes what arrived.
    public func cancel(id: String) async throws {
        guard !writing.contains(id) else { throw UploadError.busy(id) }
        _ = try await upload(id: id)
        let (part, json) = try paths(id)
        try await BlockingWork.run {
            try? FileManager.default.removeItem(at: part)
            try? FileManager.default.removeItem(at: json)
        }
    }

    /// Removes uploads not written to since `cutoff` (and stray halves of uploads); returns their ids.
    @discardableResult
    public func removeAbandoned(untouchedSince cutoff: Date) async throws -> [String] {
        let busy = writing
        let directory = directory
        return try await BlockingWork.run {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
            var ids = Set<String>()
            for name in names where name.hasSuffix(".part") || name.hasSuffix(".json") {
                ids.insert(String(name.dropLast(5)))
            }
            var removed: [String] = []
            for id in ids.sorted() where !busy.contains(id) {
                let part = directory.appendingPathComponent("\(id).part")
                let json = directory.appendingPathComponent("\(id).json")
                let dates = [part, json].compactMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.modificationDate] as? Date }
                let complete = dates.count == 2
                guard !complete || dates.max()! < cutoff else { continue }
                // A half without the other is left over from a crash mid-create or mid-finish.
                if complete || (dates.max() ?? .distantPast) < cutoff {
                    try? FileManager.default.removeItem(at: part)
                    try? FileManager.default.removeItem(at: json)
                    removed.append(id)
                }
            }
            return removed
        }
    }

    private func paths(_ id: String) throws -> (URL, URL) {
        guard id.count == 36, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { throw UploadError.notFound(id) }
        return (directory.appendingPathComponent("\(id).part"), directory.appendingPathComponent("\(id).json"))
    }

    /// The last path component of a client's file name, if it is one a file system takes.
    /// The rule for an upload's file name, as a JSON Schema `pattern` (with `maxLength`
    /// `fileNameMaximumLength`): a plain name, not a path, with no control characters
    /// (U+0000 to U+001F, U+007F to U+009F), no `/` or `\`, not starting with `.` (nor being
    /// `.` or `..`). `openapi.json` states this same text (`OpenAPIDocumentTests` checks that)
    /// and `safeFileName` checks nothing else.
    public static let fileNamePattern = #"^[^./\\\u0000-\u001f\u007f-\u009f][^/\\\u0000-\u001f\u007f-\u009f]*$"#
    /// The longest file name, in Unicode scalars (as JSON Schema's `maxLength` counts).
    public static let fileNameMaximumLength = 255

    /// `fileNamePattern`, compiled once (NSRegularExpression is immutable and safe to share).
    nonisolated(unsafe) private static let fileNameExpression = try! NSRegularExpression(pattern: fileNamePattern)

    /// `name`, when it is a file name as `fileNamePattern` says.
    static func safeFileName(_ name: String) throws -> String {
        let whole = NSRange(name.startIndex..., in: name)
        guard name.unicodeScalars.count <= fileNameMaximumLength,
            let match = fileNameExpression.firstMatch(in: name, options: [.anchored], range: whole), match.range == whole
        else {
            throw UploadError.invalidFileName(name)
        }
        return name
    }

    /// The name the finished file gets on disk: the upload's name, shortened (keeping its
    /// extension) when its UTF-8 is longer than the 255 bytes a file system's name may be.
    static func diskName(_ name: String) -> String {
        guard name.utf8.count > 255 else { return name }
        let dot = name.lastIndex(of: ".")
        let ext = dot.map { String(name[$0...]) }.flatMap { $0.utf8.count <= 16 ? $0 : nil } ?? ""
        var stem = dot.map { ext.isEmpty ? name : String(name[..<$0]) } ?? name
        while stem.utf8.count + ext.utf8.count > 255 { stem.removeLast() }
        return stem + ext
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// Writes batches of an upload's bytes to its file on the blocking-work pool; one append at a
/// time uses it (the store refuses a second writer).
private struct ChunkWriter: Sendable {
    let handle: FileHandle

    func write(_ bytes: [UInt8]) async throws {
        try await BlockingWork.run { try handle.write(contentsOf: bytes) }
    }

    func close() async throws {
        try await BlockingWork.run { try handle.close() }
    }
}
