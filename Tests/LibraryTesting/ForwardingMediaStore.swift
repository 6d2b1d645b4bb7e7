public import Foundation
public import Library

/// A media store that hands every call to `inner`, for tests that change one behaviour of a
/// real store (a `publish` that waits, or fails once) and keep the rest as it is.
///
/// A conforming type declares `inner` and implements only what it changes: its own method is
/// the witness, these forward the others.
public protocol ForwardingMediaStore: MediaStore {
    /// The store every call not implemented by the conforming type goes to.
    var inner: any MediaStore { get }
}

extension ForwardingMediaStore {
    public var description: String { "forwarding to \(inner)" }
    public var isLocal: Bool { inner.isLocal }
    public func stagingFolder(for assetID: String) -> URL { inner.stagingFolder(for: assetID) }
    public func discardStaging() async { await inner.discardStaging() }
    public func publish(assetID: String) async throws { try await inner.publish(assetID: assetID) }
    public func files(of assetID: String) async throws -> [String] { try await inner.files(of: assetID) }
    public func contains(_ path: String, of assetID: String) async -> Bool { await inner.contains(path, of: assetID) }
    public func write(_ data: Data, to path: String, of assetID: String) async throws { try await inner.write(data, to: path, of: assetID) }
    public func remove(_ path: String, of assetID: String) async throws { try await inner.remove(path, of: assetID) }
    public func removeMedia(of assetID: String) async throws { try await inner.removeMedia(of: assetID) }
    public func playlistFolder(for assetID: String) async throws -> URL { try await inner.playlistFolder(for: assetID) }
    public func localFile(_ path: String, of assetID: String) -> URL? { inner.localFile(path, of: assetID) }
    public func info(_ path: String, of assetID: String) async throws -> MediaFileInfo? { try await inner.info(path, of: assetID) }
    public func read(_ path: String, of assetID: String, range: ClosedRange<Int>?) async throws -> MediaFileContents? {
        try await inner.read(path, of: assetID, range: range)
    }
    public func stream(_ path: String, of assetID: String, range: ClosedRange<Int>?, ifMatch: String?) async throws -> MediaFileStream? {
        try await inner.stream(path, of: assetID, range: range, ifMatch: ifMatch)
    }
    public func memoryCopy(_ path: String, of assetID: String) async -> MediaMemoryCopy? { await inner.memoryCopy(path, of: assetID) }
    public var directOrigin: String? { inner.directOrigin }
    public func directURL(for path: String, of assetID: String) -> URL? { inner.directURL(for: path, of: assetID) }
    public func keepSource(_ file: URL, named name: String, id: String) async throws -> String {
        try await inner.keepSource(file, named: name, id: id)
    }
    public func fetchSource(_ sourcePath: String, into scratch: URL) async throws -> URL? { try await inner.fetchSource(sourcePath, into: scratch) }
    public func ownsSource(_ sourcePath: String) -> Bool { inner.ownsSource(sourcePath) }
    public func removeSource(_ sourcePath: String) async throws { try await inner.removeSource(sourcePath) }
    public func checkReachable() async throws { try await inner.checkReachable() }
}
