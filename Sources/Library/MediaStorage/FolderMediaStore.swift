import BlockingWork
public import Foundation

/// Media in a folder on this machine (or a shared mount): the single-machine default.
///
/// Each asset has a folder named by its id under the media folder; packaging writes straight
/// into it, so publishing has nothing to do, and the server sends its files from disk.
public struct FolderMediaStore: MediaStore {
    public let location: LibraryLocation

    public init(location: LibraryLocation) {
        self.location = location
    }

    public var description: String { location.mediaDirectory.path }
    public var isLocal: Bool { true }

    public func stagingFolder(for assetID: String) -> URL {
        location.bundleDirectory(for: assetID)
    }

    /// Nothing to free: a bundle is packaged in place, and the next job of its asset replaces it.
    public func discardStaging() async {}

    public func publish(assetID: String) async throws {}

    public func files(of assetID: String) async throws -> [String] {
        guard LibraryLocation.isSafeComponent(assetID) else { return [] }
        let folder = location.bundleDirectory(for: assetID)
        return try await BlockingWork.run {
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
            let root = folder.standardizedFileURL.path + "/"
            var found: [String] = []
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                let path = url.standardizedFileURL.path
                if path.hasPrefix(root) { found.append(String(path.dropFirst(root.count))) }
            }
            return found.sorted()
        }
    }

    public func contains(_ path: String, of assetID: String) async -> Bool {
        guard let file = localFile(path, of: assetID) else { return false }
        return FileManager.default.fileExists(atPath: file.path)
    }

    public func write(_ data: Data, to path: String, of assetID: String) async throws {
        guard let parts = MediaPath.components(path, assetID: assetID) else { throw LibraryError.assetNotFound(assetID) }
        let file = parts.reduce(location.bundleDirectory(for: assetID)) { $0.appendingPathComponent($1) }
        try await BlockingWork.run {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file, options: .atomic)
        }
    }

    public func remove(_ path: String, of assetID: String) async throws {
        guard let file = localFile(path, of: assetID) else { return }
        _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: file) }
    }

    public func removeMedia(of assetID: String) async throws {
        guard LibraryLocation.isSafeComponent(assetID) else { return }
        let folder = location.bundleDirectory(for: assetID)
        _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: folder) }
    }

    public func playlistFolder(for assetID: String) async throws -> URL {
        location.bundleDirectory(for: assetID)
    }

    public func localFile(_ path: String, of assetID: String) -> URL? {
        location.resolve(path, inBundleOf: assetID)
    }

    public func info(_ path: String, of assetID: String) async throws -> MediaFileInfo? {
        guard let file = localFile(path, of: assetID) else { return nil }
        return try await BlockingWork.run { () -> MediaFileInfo? in
            guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue else { return nil }
            return MediaFileInfo(size: size, eTag: nil)
        }
    }

    public func read(_ path: String, of assetID: String, range: ClosedRange<Int>?) async throws -> MediaFileContents? {
        guard let file = localFile(path, of: assetID) else { return nil }
        return try await BlockingWork.run { () -> MediaFileContents? in
            guard let data = try? Data(contentsOf: file) else { return nil }
            let part = range.map { data[min($0.lowerBound, data.count)..<min($0.upperBound + 1, data.count)] } ?? data[...]
            return MediaFileContents(data: Data(part), totalSize: data.count, eTag: nil)
        }
    }

    public func directURL(for path: String, of assetID: String) -> URL? { nil }

    public func keepSource(_ file: URL, named name: String, id: String) async throws -> String { file.path }

    public func fetchSource(_ sourcePath: String, into scratch: URL) async throws -> URL? { nil }

    public func ownsSource(_ sourcePath: String) -> Bool { false }

    public func removeSource(_ sourcePath: String) async throws {}
}
