import BlockingWork
import Downloads
import Foundation
import NIOCore
import NIOPosix

/// Reads a playlist from a file path or fetches it over HTTP(S) with the downloader's
/// `HTTPFetcher` (redirects followed, bounded timeouts, one retry for server errors),
/// returning its bytes and final URL.
struct PlaylistSource {
    struct Loaded {
        var data: Data
        /// The URL the playlist was finally read from (after redirects), for resolving URIs.
        var url: URL
    }

    /// A failure to read or fetch, with a message a user can act on.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func load(
        _ location: String, timeout: TimeAmount = .seconds(20),
        stall: HTTPFetcher.StallRule = HTTPFetcher.StallRule()
    ) async throws -> Loaded {
        if let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let fetcher = HTTPFetcher(concurrency: 1, policy: RetryPolicy(maximumAttempts: 2), timeout: timeout, stall: stall)
            do {
                let (data, finalURL) = try await fetcher.fetch(url, maximumBytes: HTTPFetcher.Limit.playlist)
                try await fetcher.shutdown()
                return Loaded(data: data, url: finalURL)
            } catch let error as DownloadError {
                try? await fetcher.shutdown()
                throw Failure(description: error.description)
            }
        }
        let url: URL
        if location.hasPrefix("file://") {
            guard let parsed = URL(string: location), parsed.isFileURL else {
                throw Failure(description: "\(location): not a usable file URL (spaces and other special characters must be percent-encoded)")
            }
            url = parsed
        } else {
            url = URL(fileURLWithPath: location)
        }
        do {
            // File reads block: they run on the blocking-work pool, not the cooperative pool.
            let data = try await BlockingWork.run { try readAll(url, limit: HTTPFetcher.Limit.playlist) }
            return Loaded(data: data, url: url)
        } catch let error as Failure {
            throw error
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            throw Failure(description: "\(url.path): no such file")
        } catch {
            throw Failure(description: "\(url.path): \(error.localizedDescription)")
        }
    }

    /// Reads a file to its end in pieces, so that a pipe, a FIFO or `/dev/fd/N` (a shell's
    /// `<(…)`) reads as well as a regular file: they have no size to map or to read up to.
    /// More than `limit` bytes is an error, not an endless read into memory.
    static func readAll(_ url: URL, limit: Int) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var data = Data()
        while let piece = try handle.read(upToCount: 1 << 16), !piece.isEmpty {
            data.append(piece)
            if data.count > limit {
                throw Failure(description: "\(url.path): larger than \(limit >> 20) MiB, which no playlist is")
            }
        }
        return data
    }
}
