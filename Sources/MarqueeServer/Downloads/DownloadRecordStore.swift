public import BlockingWork
public import Foundation
public import NIOPosix

/// Keeps download records as small JSON files, one folder per download under the data
/// directory's `downloads/` (`ID/download.json`, the bundle in `ID/bundle/`). Each write
/// replaces the file atomically, so a killed server leaves the last complete record. All
/// file work runs on NIO's thread pool.
public struct DownloadRecordStore: Sendable {
    public let directory: URL
    let threadPool: NIOThreadPool

    public init(directory: URL, threadPool: NIOThreadPool = BlockingWork.threadPool) {
        self.directory = directory.standardizedFileURL
        self.threadPool = threadPool
    }

    public func folder(for id: String) -> URL { directory.appendingPathComponent(id, isDirectory: true) }

    /// Where the download's HLS bundle is written.
    public func bundle(for id: String) -> URL { folder(for: id).appendingPathComponent("bundle", isDirectory: true) }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Every record that can be read; unreadable ones are skipped and reported.
    public func load() async throws -> (records: [DownloadRecord], problems: [String]) {
        let directory = directory
        return try await threadPool.runIfActive {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            var records: [DownloadRecord] = []
            var problems: [String] = []
            let folders = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            for folder in folders {
                let file = folder.appendingPathComponent("download.json")
                guard FileManager.default.fileExists(atPath: file.path) else { continue }
                do {
                    records.append(try decoder.decode(DownloadRecord.self, from: Data(contentsOf: file)))
                } catch {
                    problems.append("\(file.path): \(error)")
                }
            }
            return (records.sorted { $0.createdAt < $1.createdAt }, problems)
        }
    }

    public func save(_ record: DownloadRecord) async throws {
        let folder = folder(for: record.id)
        let data = try Self.encoder().encode(record)
        try await threadPool.runIfActive {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: folder.appendingPathComponent("download.json"), options: .atomic)
        }
    }

    /// Removes the download's bundle (keeping the record).
    public func removeBundle(of id: String) async throws {
        let bundle = bundle(for: id)
        try await threadPool.runIfActive {
            if FileManager.default.fileExists(atPath: bundle.path) { try FileManager.default.removeItem(at: bundle) }
        }
    }

    /// Removes the record and everything downloaded for it.
    public func delete(_ id: String) async throws {
        let folder = folder(for: id)
        try await threadPool.runIfActive {
            if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
        }
    }
}
