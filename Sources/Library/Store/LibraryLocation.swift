public import Foundation

/// Where a library keeps its files inside its data directory.
///
/// Everything the server may serve lives under `mediaDirectory`; `resolve(_:in:)` is the one
/// way to turn a request path into a file, and it refuses anything that leaves the folder.
public struct LibraryLocation: Sendable, Hashable {
    /// The data directory, standardised.
    public let dataDirectory: URL
    /// Set by `--media DIR`: packaged media kept outside the data directory.
    private let mediaDirectoryOverride: URL?

    /// The locations of a library in `dataDirectory`, with its media in `mediaDirectory` when given.
    public init(dataDirectory: URL, mediaDirectory: URL? = nil) {
        self.dataDirectory = dataDirectory.standardizedFileURL
        mediaDirectoryOverride = mediaDirectory?.standardizedFileURL
    }

    /// `$XDG_DATA_HOME/marquee`, or `~/.local/share/marquee`.
    public static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("marquee")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/marquee")
    }

    /// The SQLite library (`library.sqlite`), when the library's rows are kept in SQLite.
    public var databaseURL: URL { dataDirectory.appendingPathComponent("library.sqlite") }
    /// Accounts, sign-in sessions and API tokens (the `Accounts` module's database).
    public var accountsDatabaseURL: URL { dataDirectory.appendingPathComponent("accounts.sqlite") }
    /// Packaged bundles, one folder per asset: `media/` in the data directory unless `--media` moved it.
    public var mediaDirectory: URL { mediaDirectoryOverride ?? dataDirectory.appendingPathComponent("media") }
    /// Where generated sample clips are written (`samples/`).
    public var samplesDirectory: URL { dataDirectory.appendingPathComponent("samples") }
    /// Uploads in progress: `{id}.part` (the bytes so far) beside `{id}.json` (name, length).
    public var uploadsDirectory: URL { dataDirectory.appendingPathComponent("uploads") }
    /// Finished uploads, one folder each, kept as the source of their asset and removed with it.
    public var uploadedSourcesDirectory: URL { dataDirectory.appendingPathComponent("uploaded") }

    /// The folder holding one asset's HLS bundle, poster and trick-play images.
    public func bundleDirectory(for assetID: String) -> URL {
        mediaDirectory.appendingPathComponent(assetID)
    }

    /// The file for a relative path inside an asset's bundle, or `nil` if the path would
    /// leave it (`..`, absolute paths, NUL bytes, symlinks pointing out).
    public func resolve(_ relativePath: String, inBundleOf assetID: String) -> URL? {
        guard Self.isSafeComponent(assetID) else { return nil }
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !parts.isEmpty, parts.allSatisfy(Self.isSafeComponent) else { return nil }
        let root = bundleDirectory(for: assetID).resolvingSymlinksInPath()
        let candidate = parts.reduce(root) { $0.appendingPathComponent($1) }.resolvingSymlinksInPath()
        guard candidate.path.hasPrefix(root.path + "/") else { return nil }
        return candidate
    }

    /// Whether `component` is one safe path component (not empty, `.`, `..`, and no `/`, `\\` or NUL).
    public static func isSafeComponent(_ component: String) -> Bool {
        !component.isEmpty && component != "." && component != ".." && !component.contains("/")
            && !component.contains("\0") && !component.contains("\\")
    }
}
