import BlockingWork
public import Foundation

extension S3Client {
    /// Copies the object at `key` into `file` (replaced), in ranges of `multipartPartSize`
    /// bytes so a large object never sits in memory whole; each range is retried as any
    /// request is. Returns the object's size, or `nil` when there is no such object.
    @discardableResult
    public func download(_ key: String, to file: URL) async throws -> Int? {
        guard let info = try await head(key) else { return nil }
        let partial = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).part")
        let handle = try await BlockingWork.run {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: partial.path, contents: nil)
            return try FileHandle(forWritingTo: partial)
        }
        do {
            var offset = 0
            while offset < info.size {
                let last = min(info.size, offset + multipartPartSize) - 1
                let part = try await get(key, range: offset...last)
                guard part.data.count == last - offset + 1 else {
                    throw S3Error(
                        operation: "GET \(bucket)/\(key)", status: 206, code: "ShortRead",
                        message: "asked for \(last - offset + 1) bytes at \(offset), got \(part.data.count)")
                }
                let bytes = part.data
                try await BlockingWork.run { try handle.write(contentsOf: bytes) }
                offset = last + 1
            }
            try await BlockingWork.run { try handle.close() }
        } catch {
            _ = try? await BlockingWork.run {
                try? handle.close()
                try FileManager.default.removeItem(at: partial)
            }
            throw error
        }
        try await BlockingWork.run {
            _ = try? FileManager.default.removeItem(at: file)
            try FileManager.default.moveItem(at: partial, to: file)
        }
        return info.size
    }
}
