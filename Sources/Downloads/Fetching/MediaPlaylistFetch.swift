import Foundation
import HLS

extension HTTPFetcher {
    /// Fetches the media playlist at `url` and parses it with the multivariant playlist's
    /// variables available to `EXT-X-DEFINE:IMPORT`; returns it with its final URL (after
    /// redirects), against which its URIs resolve. Anything but an error-free media playlist
    /// is a `DownloadError.playlist` naming that URL.
    func mediaPlaylist(at url: URL, importedVariables: [String: String]) async throws -> (playlist: MediaPlaylist, url: URL) {
        let (data, finalURL) = try await fetch(url, maximumBytes: Limit.playlist)
        let result = PlaylistParser.parse(data, options: ParseOptions(url: finalURL, importedVariables: importedVariables))
        guard let media = result.playlist?.media, result.errors.isEmpty else {
            throw DownloadError.playlist(
                url: finalURL,
                errors: result.errors.isEmpty
                    ? [Diagnostic(.error, line: 1, column: 1, message: "expected a media playlist")] : result.errors)
        }
        return (media, finalURL)
    }
}

extension MultivariantPlaylist {
    /// The `EXT-X-DEFINE:NAME/VALUE` variables its media playlists may import.
    var importableVariables: [String: String] {
        Dictionary(
            definitions.compactMap { d -> (String, String)? in
                if case .value(let n, let v) = d { return (n, v) } else { return nil }
            }, uniquingKeysWith: { first, _ in first })
    }
}
