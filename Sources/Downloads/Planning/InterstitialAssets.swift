import Foundation
import HLS

/// Interstitial assets (HLS Interstitials' `X-ASSET-URI`) taken offline with the primary
/// content: each distinct asset is fetched once — a media playlist as is, a multivariant one
/// by its highest-bandwidth variant, which must carry its audio — laid out in its own
/// `interstitial-N` folder, and the bundle's date ranges point at the local copy.
/// `X-ASSET-LIST` (a JSON list resolved at play time) stays remote.
enum InterstitialAssets {
    struct Asset: Sendable {
        var sourceURL: URL
        var folder: String
        var jobs: [SegmentJob]
        var playlist: MediaPlaylist
    }

    /// Fetches and lays out every distinct X-ASSET-URI of `playlists` (folder, playlist as
    /// rewritten, its final URL).
    static func prepare(playlists: [(folder: String, playlist: MediaPlaylist, url: URL)], fetcher: HTTPFetcher) async throws -> [Asset] {
        var urls: [URL] = []
        for p in playlists {
            for range in p.playlist.dateRanges where range.isInterstitial {
                guard let uri = range.clientAttributes[named: "X-ASSET-URI"]?.text,
                      let url = URL(string: URIResolution.resolve(uri, against: p.url)), !urls.contains(url) else { continue }
                urls.append(url)
            }
        }
        var assets: [Asset] = []
        for (n, url) in urls.enumerated() {
            var (data, finalURL) = try await fetcher.fetch(url)
            var parsed = PlaylistParser.parse(data, options: ParseOptions(url: finalURL))
            if let multivariant = parsed.playlist?.multivariant {
                let variants = multivariant.inspectedVariants(baseURL: finalURL)
                guard let choice = VariantSelection.choose(from: variants, qualifiers: []) else {
                    throw DownloadError.playlist(url: finalURL, errors: [Diagnostic(.error, line: 1, column: 1, message: "interstitial asset has no variants")])
                }
                if choice.variant.stream.audio.map({ !multivariant.renditions(ofType: .audio, group: $0).allSatisfy { $0.uri == nil } }) == true {
                    throw DownloadError.selection("\(finalURL.absoluteString): interstitial asset with separate audio renditions cannot be downloaded yet")
                }
                guard let variantURL = URL(string: choice.variant.uri) else { continue }
                (data, finalURL) = try await fetcher.fetch(variantURL)
                parsed = PlaylistParser.parse(data, options: ParseOptions(url: finalURL))
            }
            guard let media = parsed.playlist?.media, parsed.errors.isEmpty else {
                throw DownloadError.playlist(url: finalURL, errors: parsed.errors)
            }
            let folder = "interstitial-\(n + 1)"
            let (jobs, rewritten) = try MediaLayout.make(folder: folder, playlist: media, url: finalURL)
            assets.append(Asset(sourceURL: url, folder: folder, jobs: jobs, playlist: rewritten))
        }
        return assets
    }

    /// `playlist` with each downloaded X-ASSET-URI replaced by the relative path of its copy.
    static func rewrite(_ playlist: MediaPlaylist, sourceURL: URL, assets: [Asset]) -> MediaPlaylist {
        var out = playlist
        for i in out.dateRanges.indices where out.dateRanges[i].isInterstitial {
            guard let j = out.dateRanges[i].clientAttributes.firstIndex(where: { $0.name == "X-ASSET-URI" }),
                  let url = URL(string: URIResolution.resolve(out.dateRanges[i].clientAttributes[j].value.text, against: sourceURL)),
                  let asset = assets.first(where: { $0.sourceURL == url }) else { continue }
            out.dateRanges[i].clientAttributes[j].value = .quoted("../\(asset.folder)/index.m3u8")
        }
        return out
    }
}
