import BlockingWork
import Crypto
import Foundation
import Synchronization

/// The version of the web app's files: a short SHA-256 of every file under the web root (its
/// path and bytes). Pages name their scripts and stylesheets under `/ui/v/{version}/`
/// (`WebPages`), and a file asked for under the current version may be cached for good
/// (`VersionedWebPaths`), so a browser that has opened a page once loads its ~75 modules from
/// its own cache instead of revalidating each one.
///
/// The version is read from the file system on the blocking pool and trusted for
/// `recheckAfter`; after that the next caller lists the files again (a `stat` each) and hashes
/// them again only when a path, size or modification time changed. Nodes of a cluster that run
/// the same build therefore agree on the version, whenever their files were installed.
final class WebRootVersion: Sendable {
    /// The folder of the web app's files.
    let root: URL
    /// How long a version is trusted before the files are listed again.
    let recheckAfter: Duration

    private struct Known {
        var version: String
        var signature: [String]
        var checked: ContinuousClock.Instant
    }
    private let known = Mutex<Known?>(nil)

    init(root: URL, recheckAfter: Duration = .seconds(1)) {
        self.root = root
        self.recheckAfter = recheckAfter
    }

    /// The current version: twelve lowercase hex digits.
    func current() async throws -> String {
        let recheckAfter = recheckAfter
        if let version = known.withLock({ known in
            known.flatMap { ContinuousClock.now - $0.checked < recheckAfter ? $0.version : nil }
        }) {
            return version
        }
        return try await BlockingWork.run { try self.recheck() }
    }

    /// Lists the files and, when their listing changed, hashes them again (blocking).
    private func recheck() throws -> String {
        let files = try Self.listing(of: root)
        let signature = files.map { "\($0.path)\u{0}\($0.size)\u{0}\($0.modified)" }
        let now = ContinuousClock.now
        if let same = known.withLock({ known -> String? in
            guard var current = known, current.signature == signature else { return nil }
            current.checked = now
            known = current
            return current.version
        }) {
            return same
        }
        var hash = SHA256()
        for file in files {
            hash.update(data: Data(file.path.utf8))
            hash.update(data: [0])
            hash.update(data: try Data(contentsOf: root.appendingPathComponent(file.path)))
            hash.update(data: [0])
        }
        let version = hash.finalize().prefix(6).map { String(format: "%02x", $0) }.joined()
        known.withLock { $0 = Known(version: version, signature: signature, checked: now) }
        return version
    }

    /// Every regular file under `root`, by path relative to it, sorted.
    private static func listing(of root: URL) throws -> [(path: String, size: Int, modified: Double)] {
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        let base = root.standardizedFileURL.path
        var files: [(path: String, size: Int, modified: Double)] = []
        for case let url as URL in walk {
            let values = try url.resourceValues(forKeys: Set(keys))
            guard values.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            let relative = path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : url.lastPathComponent
            files.append((relative, values.fileSize ?? 0, values.contentModificationDate?.timeIntervalSince1970 ?? 0))
        }
        return files.sorted { $0.path < $1.path }
    }
}
