import Foundation
import HLS

/// The files an HLS bundle on disk consists of: its entry playlist and everything the
/// playlists name — variant, rendition, I-frame and image playlists, segments, init sections,
/// keys, session data, interstitial assets and asset lists — plus a download's
/// `metadata.json` and artwork.
///
/// Importing copies exactly these files, each as a regular file, so a bundle can never
/// publish anything else: a symbolic link (the bundle folder itself, or any file in it), a
/// reference that leaves the bundle's folder (`../`, an absolute path, `file:`) or a name
/// that is not a regular file makes the import fail with the reason. (The bundle folder
/// itself may be a link a person chose; the importer resolves it first.) Remote (`http(s)://`)
/// references stay remote and are not files of the bundle.
struct BundleContents: Sendable {
    /// Paths relative to the bundle's folder, in the order they were found.
    var files: [String]

    enum Failure: Error, Equatable, CustomStringConvertible {
        case unsafe(String, reason: String)
        var description: String {
            switch self {
            case .unsafe(let name, let reason): "\(name): \(reason)"
            }
        }
    }

    /// Walks the playlists from `entry` (a file directly in `root`).
    static func find(root: URL, entry: String) throws -> BundleContents {
        let rootPath = root.standardizedFileURL.path
        var walker = Walker(root: root, rootPath: rootPath)
        try walker.visitPlaylist(entry)
        if try walker.addIfRegular(BundleLayout.metadata) {
            let data = try Data(contentsOf: root.appendingPathComponent(BundleLayout.metadata))
            if let artwork = (try? BundleMetadata.decode(from: data))?.artwork {
                _ = try walker.addIfRegular(artwork)
            }
        }
        return BundleContents(files: walker.order)
    }

    private struct Walker {
        let root: URL
        let rootPath: String
        var seen: Set<String> = []
        var order: [String] = []

        /// The bundle-relative path a URI names from the file at `from`, or nil for a remote URI.
        func resolve(_ uri: String, from: String) throws -> String? {
            let lowered = uri.lowercased()
            if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("skd://")
                || lowered.hasPrefix("data:")
            {
                return nil
            }
            if uri.hasPrefix("/") || uri.contains("://") || lowered.hasPrefix("file:") {
                throw Failure.unsafe(from, reason: "names \(uri), outside the bundle")
            }
            let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
            let decoded = path.removingPercentEncoding ?? path
            let base = (from as NSString).deletingLastPathComponent
            let full = root.appendingPathComponent(base).appendingPathComponent(decoded).standardizedFileURL.path
            guard full.hasPrefix(rootPath + "/") else {
                throw Failure.unsafe(from, reason: "names \(uri), outside the bundle")
            }
            return String(full.dropFirst(rootPath.count + 1))
        }

        /// Adds a file that must exist as a regular file (not a link) inside the bundle.
        mutating func add(_ relative: String, namedIn from: String) throws {
            guard seen.insert(relative).inserted else { return }
            let url = root.appendingPathComponent(relative)
            // Every folder on the way must be a real folder too.
            var folder = url.deletingLastPathComponent().standardizedFileURL
            while folder.path.hasPrefix(rootPath + "/") {
                if try Self.linkOrMissing(folder) {
                    throw Failure.unsafe(relative, reason: "named in \(from), lies in a folder that is a symbolic link")
                }
                folder = folder.deletingLastPathComponent()
            }
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
                throw Failure.unsafe(relative, reason: "named in \(from), is missing")
            }
            switch attributes[.type] as? FileAttributeType {
            case .typeRegular?: order.append(relative)
            case .typeSymbolicLink?: throw Failure.unsafe(relative, reason: "named in \(from), is a symbolic link")
            default: throw Failure.unsafe(relative, reason: "named in \(from), is not a regular file")
            }
        }

        static func linkOrMissing(_ url: URL) throws -> Bool {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return true }
            return attributes[.type] as? FileAttributeType == .typeSymbolicLink
        }

        /// Adds an optional top-level sidecar when it is a regular file; a link is an error.
        mutating func addIfRegular(_ name: String) throws -> Bool {
            let url = root.appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return false }
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                throw Failure.unsafe(name, reason: "is not a regular file")
            }
            if seen.insert(name).inserted { order.append(name) }
            return true
        }

        mutating func visitPlaylist(_ relative: String, namedIn from: String? = nil) throws {
            guard !seen.contains(relative) else { return }
            try add(relative, namedIn: from ?? "the bundle")
            let data = try Data(contentsOf: root.appendingPathComponent(relative))
            switch PlaylistParser.parse(data).playlist {
            case .multivariant(let p)?:
                for uri in p.variants.map(\.uri) + p.renditions.compactMap(\.uri) + p.iFrameVariants.map(\.uri)
                    + p.imageVariants.map(\.uri)
                {
                    if let path = try resolve(uri, from: relative) { try visitPlaylist(path, namedIn: relative) }
                }
                for uri in p.sessionData.compactMap(\.uri) + p.sessionKeys.compactMap(\.uri) {
                    if let path = try resolve(uri, from: relative) { try add(path, namedIn: relative) }
                }
            case .media(let p)?:
                for segment in p.segments {
                    var uris = [segment.uri] + segment.keys.compactMap(\.uri) + segment.parts.map(\.uri)
                    if let map = segment.map { uris.append(map.uri) }
                    for uri in uris {
                        if let path = try resolve(uri, from: relative) { try add(path, namedIn: relative) }
                    }
                }
                for interstitial in p.interstitials.compactMap(\.interstitial) {
                    if let uri = interstitial.assetURI, let path = try resolve(uri, from: relative) {
                        try visitPlaylist(path, namedIn: relative)
                    }
                    if let uri = interstitial.assetList, let path = try resolve(uri, from: relative) {
                        try visitAssetList(path, namedIn: relative)
                    }
                }
            case nil:
                throw Failure.unsafe(relative, reason: "named in \(from ?? "the bundle"), is not a playlist")
            }
        }

        /// An HLS Interstitials asset list: a JSON document whose `ASSETS[].URI` are playlists.
        mutating func visitAssetList(_ relative: String, namedIn from: String) throws {
            guard !seen.contains(relative) else { return }
            try add(relative, namedIn: from)
            let data = try Data(contentsOf: root.appendingPathComponent(relative))
            guard let list = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let assets = list["ASSETS"] as? [[String: Any]]
            else {
                throw Failure.unsafe(relative, reason: "named in \(from), is not an asset list")
            }
            for uri in assets.compactMap({ $0["URI"] as? String }) {
                if let path = try resolve(uri, from: relative) { try visitPlaylist(path, namedIn: relative) }
            }
        }
    }
}
