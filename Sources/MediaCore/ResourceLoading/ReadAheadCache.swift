import Synchronization

/// Reads a resource loader in large chunks and keeps the next chunks coming in the background,
/// as a player does for a network source.
///
/// Used for loaders that do not have their entire length available on demand. Memory is
/// bounded by `chunkSize * (readAheadChunks + 1)`.
final class ReadAheadCache: Sendable {
    let loader: any ResourceLoader
    let chunkSize: Int
    let readAheadChunks: Int
    private let chunks = Mutex<[Int64: Task<[UInt8], any Error>]>([:])

    init(loader: any ResourceLoader, chunkSize: Int = 1 << 20, readAheadChunks: Int = 4) {
        self.loader = loader
        self.chunkSize = chunkSize
        self.readAheadChunks = readAheadChunks
    }

    deinit {
        chunks.withLock { for task in $0.values { task.cancel() } }
    }

    /// Bytes at `offset`, at most `length`, from the chunk holding `offset`; starts fetching the
    /// chunks after it and forgets chunks outside the window.
    func read(offset: Int64, length: Int, contentLength: Int64) async throws -> [UInt8] {
        let index = offset / Int64(chunkSize)
        let lastIndex = max(0, (contentLength - 1) / Int64(chunkSize))
        let window = index...min(lastIndex, index + Int64(readAheadChunks))
        let loader = self.loader
        let size = chunkSize
        let wanted = chunks.withLock { chunks in
            for key in chunks.keys where !window.contains(key) {
                chunks.removeValue(forKey: key)?.cancel()
            }
            for key in window where chunks[key] == nil {
                chunks[key] = Task { try await loader.read(offset: key * Int64(size), length: size) }
            }
            return chunks[index]!
        }
        let chunk = try await wanted.value
        let start = Int(offset - index * Int64(chunkSize))
        guard start < chunk.count else { return [] }
        return Array(chunk[start..<min(chunk.count, start + length)])
    }
}
