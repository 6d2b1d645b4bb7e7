import BlockingWork
import Foundation

/// What a download that stopped for good keeps on disk, measured rather than counted.
///
/// A failed fetch leaves nothing worth keeping in a partial file (`*.part`): a retry fetches
/// the file again from its start, so the partial one is removed at once instead of holding
/// up to a media file's limit (1 GiB) until the download is deleted. What stays (the finished
/// segments a retry resumes from) is measured from the disk, so `diskUsage` says what the
/// folder really holds rather than what the progress reports last counted.
enum DownloadDiskSweep {
    /// Removes the partial files under `folder` and returns the bytes of the files left.
    static func sweep(_ folder: URL) async -> Int64 {
        // Detached: a cleanup asked for by a cancelled task must still run.
        await Task.detached {
            (try? await BlockingWork.run { sweepNow(folder) }) ?? 0
        }.value
    }

    /// `sweep` on the calling thread (a blocking-work thread).
    static func sweepNow(_ folder: URL) -> Int64 {
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else { return 0 }
        var bytes: Int64 = 0
        for case let file as URL in walker {
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            if file.pathExtension == "part", (try? FileManager.default.removeItem(at: file)) != nil { continue }
            bytes += Int64(values.fileSize ?? 0)
        }
        return bytes
    }
}
