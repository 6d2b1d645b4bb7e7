import Foundation
import HLS

/// Interstitial assets (HLS Interstitials) taken offline with the primary content, so ads
/// and bumpers play on a plane as they would online.
///
/// Every distinct asset is fetched once, whether a date range names it by `X-ASSET-URI` or
/// an `X-ASSET-LIST` JSON document lists it. A media playlist is laid out as is in its own
/// `interstitial-N` folder. A multivariant one is planned like a download without qualifiers
/// (the highest-bandwidth variant with the playlist's default audio and subtitle
/// renditions, no I-frames) and becomes a small multivariant bundle of its own in that
/// folder. Each asset list is stored as `interstitial-lists/list-N.json`, its `ASSETS` URIs
/// pointing at the local copies and every other key kept. The bundle's date ranges then
/// point at the local copies.
enum InterstitialAssets {
    /// One downloaded asset: its jobs and the playlists to write, by path inside the bundle.
    struct Asset: Sendable {
        var sourceURL: URL
        var folder: String
        var jobs: [SegmentJob]
        var playlists: [String: String]
        var entryPath: String { BundleLayout.mediaPlaylist(inFolder: folder) }
    }

    /// One asset list, rewritten to the local copies.
    struct AssetList: Sendable {
        var sourceURL: URL
        var path: String
        var document: Data
    }

    struct Prepared: Sendable {
        var assets: [Asset] = []
        var lists: [AssetList] = []
        var jobs: [SegmentJob] { assets.flatMap(\.jobs) }
    }

    static let listFolder = "interstitial-lists"

    /// Fetches and lays out every asset the interstitials of `playlists` name (each with
    /// its final URL, against which their URIs resolve).
    static func prepare(playlists: [(playlist: MediaPlaylist, url: URL)], fetcher: HTTPFetcher) async throws -> Prepared {
        var assetURLs: [URL] = []
        var listURLs: [URL] = []
        for p in playlists {
            for range in p.playlist.dateRanges where range.isInterstitial {
                if let uri = range.clientAttributes[named: "X-ASSET-URI"]?.text,
                    let url = URL(string: URIResolution.resolve(uri, against: p.url)), !assetURLs.contains(url)
                {
                    assetURLs.append(url)
                }
                if let uri = range.clientAttributes[named: "X-ASSET-LIST"]?.text,
                    let url = URL(string: URIResolution.resolve(uri, against: p.url)), !listURLs.contains(url)
                {
                    listURLs.append(url)
                }
            }
        }
        // Lists first: the assets they name join the others, so each is fetched once.
        var documents: [(url: URL, object: [String: Any], assets: [URL])] = []
        for url in listURLs {
            let (data, finalURL) = try await fetcher.fetch(url, maximumBytes: HTTPFetcher.Limit.assetList)
            let (object, assets) = try parseList(data, url: finalURL)
            for a in assets where !assetURLs.contains(a) { assetURLs.append(a) }
            documents.append((url, object, assets))
        }
        var prepared = Prepared()
        for (n, url) in assetURLs.enumerated() {
            prepared.assets.append(try await prepareAsset(url, folder: "interstitial-\(n + 1)", fetcher: fetcher))
        }
        for (n, document) in documents.enumerated() {
            var object = document.object
            var entries = object["ASSETS"] as? [[String: Any]] ?? []
            for (i, assetURL) in document.assets.enumerated() {
                if let asset = prepared.assets.first(where: { $0.sourceURL == assetURL }) { entries[i]["URI"] = "../\(asset.entryPath)" }
            }
            object["ASSETS"] = entries
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
            prepared.lists.append(AssetList(sourceURL: document.url, path: "\(listFolder)/list-\(n + 1).json", document: data))
        }
        return prepared
    }

    /// The `X-ASSET-LIST` document (RFC 8216bis, Interstitials): a JSON object whose `ASSETS`
    /// array holds objects with a `URI` and a `DURATION`. Returns it, and its asset URLs.
    static func parseList(_ data: Data, url: URL) throws -> ([String: Any], [URL]) {
        func bad(_ reason: String) -> DownloadError { .assetList(url: url, reason: reason) }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch { throw bad("not JSON (\(error.localizedDescription))") }
        guard let object = json as? [String: Any] else { throw bad("expected a JSON object at the top level") }
        guard let assets = object["ASSETS"] as? [Any] else { throw bad("expected an \"ASSETS\" array") }
        let urls = try assets.enumerated().map { i, item -> URL in
            guard let entry = item as? [String: Any], let uri = entry["URI"] as? String,
                let u = URL(string: URIResolution.resolve(uri, against: url))
            else {
                throw bad("ASSETS[\(i)]: expected an object with a \"URI\" string")
            }
            return u
        }
        return (object, urls)
    }

    private static func prepareAsset(_ url: URL, folder: String, fetcher: HTTPFetcher) async throws -> Asset {
        let (data, finalURL) = try await fetcher.fetch(url, maximumBytes: HTTPFetcher.Limit.playlist)
        let parsed = PlaylistParser.parse(data, options: ParseOptions(url: finalURL))
        guard let playlist = parsed.playlist, parsed.errors.isEmpty else {
            throw DownloadError.playlist(url: finalURL, errors: parsed.errors)
        }
        switch playlist {
        case .media(let media):
            let (jobs, rewritten) = try MediaLayout.make(folder: folder, playlist: media, url: finalURL)
            return Asset(sourceURL: url, folder: folder, jobs: jobs, playlists: [BundleLayout.mediaPlaylist(inFolder: folder): PlaylistWriter.write(rewritten)])
        case .multivariant(let multivariant):
            let configuration = DownloadConfiguration(asset: finalURL, title: "", downloadsIFramePlaylists: false)
            let (plan, _) = try configuration.plan(for: multivariant, url: finalURL)
            var asset = Asset(sourceURL: url, folder: folder, jobs: [], playlists: [:])
            for entry in plan.entries {
                let (media, mediaURL) = try await fetcher.mediaPlaylist(at: entry.url, importedVariables: multivariant.importableVariables)
                let (jobs, rewritten) = try MediaLayout.make(folder: "\(folder)/\(entry.folder)", playlist: media, url: mediaURL)
                asset.jobs += jobs
                asset.playlists[BundleLayout.mediaPlaylist(inFolder: "\(folder)/\(entry.folder)")] = PlaylistWriter.write(rewritten)
            }
            asset.playlists[BundleLayout.mediaPlaylist(inFolder: folder)] = PlaylistWriter.write(BundleWriter.multivariant(for: plan))
            return asset
        }
    }

    /// `playlist` (read from `sourceURL`, kept one folder deep in the bundle) with each
    /// downloaded X-ASSET-URI and X-ASSET-LIST replaced by the relative path of its copy.
    static func rewrite(_ playlist: MediaPlaylist, sourceURL: URL, prepared: Prepared) -> MediaPlaylist {
        var out = playlist
        for i in out.dateRanges.indices where out.dateRanges[i].isInterstitial {
            for j in out.dateRanges[i].clientAttributes.indices {
                let attribute = out.dateRanges[i].clientAttributes[j]
                guard let url = URL(string: URIResolution.resolve(attribute.value.text, against: sourceURL)) else { continue }
                switch attribute.name {
                case "X-ASSET-URI":
                    if let asset = prepared.assets.first(where: { $0.sourceURL == url }) {
                        out.dateRanges[i].clientAttributes[j].value = .quoted("../\(asset.entryPath)")
                    }
                case "X-ASSET-LIST":
                    if let list = prepared.lists.first(where: { $0.sourceURL == url }) {
                        out.dateRanges[i].clientAttributes[j].value = .quoted("../\(list.path)")
                    }
                default: break
                }
            }
        }
        return out
    }
}
