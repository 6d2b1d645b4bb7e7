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
        let url = location.hasPrefix("file://") ? URL(string: location)! : URL(fileURLWithPath: location)
        do {
            // File reads block: they run on NIO's thread pool, not the cooperative pool.
            let data = try await BlockingWork.run { try Data(contentsOf: url, options: .mappedIfSafe) }
            return Loaded(data: data, url: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            throw Failure(description: "\(url.path): no such file")
        } catch {
            throw Failure(description: "\(url.path): \(error.localizedDescription)")
        }
    }
}
