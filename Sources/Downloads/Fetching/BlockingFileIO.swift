import BlockingWork
import Foundation
import NIOPosix

/// File-system work the download does, run on NIO's thread pool so no blocking call lands
/// on the cooperative pool: atomic writes (temporary name, flush, rename), sizes, removal.
enum BlockingFileIO {
    /// Writes `data` to `path` atomically: written in full to `path.part`, closed (flushed to
    /// the kernel), then renamed, so a file under its final name is always complete. A killed
    /// process leaves no partial file under a final name; there is no fsync per file (the
    /// journal only records a file after its rename, and a resume re-checks sizes, which is
    /// what an unclean power loss on a data=ordered file system can leave short).
    static func writeAtomically(_ data: Data, to url: URL) async throws {
        try await BlockingWork.run {
            let fm = FileManager.default
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let temporary = url.appendingPathExtension("part")
            guard fm.createFile(atPath: temporary.path, contents: nil) else {
                throw DownloadError.io(path: temporary.path, reason: "cannot create file")
            }
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                try handle.write(contentsOf: data)
                try handle.close()
            } catch {
                try? handle.close()
                throw DownloadError.io(path: temporary.path, reason: error.localizedDescription)
            }
            if rename(temporary.path, url.path) != 0 {
                throw DownloadError.io(path: url.path, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// The size of a file, or nil when it does not exist.
    static func size(of url: URL) async throws -> Int64? {
        try await BlockingWork.run {
            (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        }
    }

    static func remove(_ url: URL) async throws {
        try await BlockingWork.run {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        }
    }
}
