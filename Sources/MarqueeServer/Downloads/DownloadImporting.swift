public import Foundation
public import Library

/// How far the library has got with a bundle a download handed it.
public enum LibraryImportStatus: Sendable, Hashable {
    case working
    case ready
    case failed(String)
    /// The asset is no longer in the library.
    case missing
}

/// The seam between finished downloads and the library: add a bundle, follow its import,
/// and let go of the downloaded copy once the library has its own. `LibraryDownloadImporter`
/// is the real one; tests use their own.
public protocol DownloadImporting: Sendable {
    /// Adds the bundle folder to the library (imported as an HLS bundle); the new asset's id.
    func add(bundle: URL) async throws -> String
    func status(of assetID: String) async throws -> LibraryImportStatus
    /// The library's copy is complete and the downloaded folder goes: it is no longer the source.
    func detachSource(of assetID: String) async throws
    /// A file of the asset's bundle in the library, for a player that started on the download.
    func bundleFile(_ relativePath: String, of assetID: String) -> URL?
}

/// Imports finished downloads into a `MediaLibrary` with `add(paths:)`, which copies the
/// bundle through `BundleImporter` and makes its thumbnails.
public struct LibraryDownloadImporter: DownloadImporting {
    public let library: MediaLibrary

    public init(library: MediaLibrary) { self.library = library }

    public func add(bundle: URL) async throws -> String {
        // Kept in object storage when the media are there, so a worker on another machine can import it.
        try await library.add(keeping: bundle).id
    }

    public func status(of assetID: String) async throws -> LibraryImportStatus {
        guard let asset = try await library.asset(id: assetID) else { return .missing }
        switch asset.status {
        case .ready: return .ready
        case .failed: return .failed(try await library.jobs(assetID: assetID).first?.message ?? "the import failed")
        case .pending, .processing: return .working
        }
    }

    public func detachSource(of assetID: String) async throws {
        guard var asset = try await library.asset(id: assetID) else { return }
        if let kept = asset.sourcePath, library.media.ownsSource(kept) { try await library.media.removeSource(kept) }
        asset.sourcePath = nil
        try await library.save(asset)
    }

    public func bundleFile(_ relativePath: String, of assetID: String) -> URL? {
        library.location.resolve(relativePath, inBundleOf: assetID)
    }
}
