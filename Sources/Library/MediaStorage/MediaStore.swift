public import Foundation

/// Where an asset's packaged media lives once it is published: its HLS bundle, poster,
/// trick-play images, subtitles and artwork, and the sources the library keeps (uploads).
///
/// Packaging always happens in a local folder (`stagingFolder(for:)`); `publish(assetID:)`
/// then makes that folder the asset's media. `FolderMediaStore` (the embedded default) packages
/// straight into the media folder, so publishing has nothing to do; an object store
/// (`S3MediaStore` in `LibraryObjectStorage`) uploads the folder and frees it. Readers of
/// playlists get a local folder holding them (`playlistFolder(for:)`); servers read any file
/// with `read(_:of:range:)` or send clients to `directURL(for:of:)`.
public protocol MediaStore: Sendable, CustomStringConvertible {
    /// True when the media are files on this machine (`localFile(_:of:)` finds them).
    var isLocal: Bool { get }

    /// The local folder the asset's bundle is packaged into before `publish(assetID:)`.
    func stagingFolder(for assetID: String) -> URL

    /// Frees bundles left staged by a worker of this data directory that stopped mid-job
    /// (killed); called when a worker starts, before it claims anything.
    func discardStaging() async

    /// Makes the staged bundle the asset's media, replacing what was published before.
    func publish(assetID: String) async throws

    /// The relative paths of every published file of the asset.
    func files(of assetID: String) async throws -> [String]

    /// Whether the asset's published media include `path`.
    func contains(_ path: String, of assetID: String) async -> Bool

    /// Writes (or replaces) one published file of the asset, such as its artwork.
    func write(_ data: Data, to path: String, of assetID: String) async throws

    /// Removes one published file of the asset (no error when there is none).
    func remove(_ path: String, of assetID: String) async throws

    /// Removes every published and staged file of the asset.
    func removeMedia(of assetID: String) async throws

    /// A local folder with the asset's playlists and JSON descriptions (`master.m3u8`,
    /// variant playlists, `trickplay.json`), for code that parses them.
    func playlistFolder(for assetID: String) async throws -> URL

    /// The local file for `path` in the asset's media, or `nil` when the path would leave
    /// it or the store is not local.
    func localFile(_ path: String, of assetID: String) -> URL?

    /// The size and validator of a published file, or `nil` when there is none.
    func info(_ path: String, of assetID: String) async throws -> MediaFileInfo?

    /// The bytes of a published file (or of `range`, inclusive bounds), or `nil` when there is none.
    func read(_ path: String, of assetID: String, range: ClosedRange<Int>?) async throws -> MediaFileContents?

    /// The bytes of a published file (or of `range`, inclusive bounds) as they arrive, or
    /// `nil` when there is none. With `ifMatch`, fails when the file's validator is no longer
    /// that one (so a range worked out from an earlier `info` is of the same file).
    func stream(_ path: String, of assetID: String, range: ClosedRange<Int>?, ifMatch: String?) async throws -> MediaFileStream?

    /// The whole file, when this node holds a current copy in memory (a store that keeps hot
    /// files from a remote bucket), so the server can answer it as it answers local files;
    /// `nil` otherwise. Never waits on the remote store beyond a freshness check.
    func memoryCopy(_ path: String, of assetID: String) async -> MediaMemoryCopy?

    /// The origin (`scheme://host[:port]`) clients are redirected to for media (the bucket's
    /// endpoint or the CDN), or `nil` when media are served by the server itself. Pages must
    /// allow it in their content security policy.
    var directOrigin: String? { get }

    /// A URL a client may fetch the file at directly (presigned, or on a CDN), or `nil` to
    /// have the server stream it.
    func directURL(for path: String, of assetID: String) -> URL?

    /// Takes a server-local source (an upload) into the store; returns the source path to
    /// record on the asset. A folder store keeps it where it is.
    func keepSource(_ file: URL, named name: String, id: String) async throws -> String

    /// The local file of a source the store kept (fetched into `scratch` when remote), or
    /// `nil` when `sourcePath` is not one of the store's own.
    func fetchSource(_ sourcePath: String, into scratch: URL) async throws -> URL?

    /// Whether `sourcePath` names a source kept in the store rather than a local file.
    func ownsSource(_ sourcePath: String) -> Bool

    /// Deletes a source the store kept.
    func removeSource(_ sourcePath: String) async throws

    /// Throws when the store cannot be reached now (a bucket that does not answer); `/readyz`
    /// asks it. A folder on this machine is always reachable.
    func checkReachable() async throws
}

extension MediaStore {
    public func checkReachable() async throws {}
}

/// What a store knows about a published file without reading it.
public struct MediaFileInfo: Sendable, Hashable {
    public var size: Int
    /// A validator that changes when the file does (an object's ETag), quoted as in HTTP.
    public var eTag: String?

    public init(size: Int, eTag: String?) {
        self.size = size
        self.eTag = eTag
    }
}

/// Some or all of the bytes of a published media file.
public struct MediaFileContents: Sendable {
    public var data: Data
    /// The whole file's size, whatever part `data` is.
    public var totalSize: Int
    /// A validator that changes when the file does (an object's ETag), quoted as in HTTP.
    public var eTag: String?

    public init(data: Data, totalSize: Int, eTag: String?) {
        self.data = data
        self.totalSize = totalSize
        self.eTag = eTag
    }
}

/// A relative path inside an asset's media, checked: no `..`, no absolute paths, no NUL
/// bytes or backslashes, and a safe asset id.
public enum MediaPath {
    /// The path's components, or `nil` when it would leave the asset's media.
    public static func components(_ path: String, assetID: String) -> [String]? {
        guard LibraryLocation.isSafeComponent(assetID) else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !parts.isEmpty, parts.allSatisfy(LibraryLocation.isSafeComponent) else { return nil }
        return parts
    }
}
