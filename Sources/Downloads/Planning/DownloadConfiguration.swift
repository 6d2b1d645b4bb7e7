public import Foundation
public import HLS

/// What to download for offline use — the counterpart of `AVAssetDownloadConfiguration`: a
/// primary content configuration (variant qualifiers plus audio and subtitle selections) and
/// auxiliary ones, each resolved against the asset's multivariant playlist into a
/// `DownloadPlan`.
///
/// With `optimizesAuxiliaryContentConfigurations` (the default), an auxiliary configuration
/// is first resolved among the variants that share the primary variant's video playlist;
/// when one of its qualifiers matches there, only its extra audio and subtitle renditions are
/// downloaded and the video is not fetched twice. Otherwise — or with the option off — it is
/// resolved on its own and may bring its own video. A video playlist is never downloaded
/// twice either way.
public struct DownloadConfiguration: Sendable {
    /// The multivariant playlist to download from.
    public var asset: URL
    /// The title the bundle gets.
    public var title: String
    /// An image to download as the bundle's artwork.
    public var artworkURL: URL?
    /// What to download first and at least: one variant and its renditions.
    public var primaryContentConfiguration: ContentConfiguration
    /// More to download beside the primary (other languages, another quality).
    public var auxiliaryContentConfigurations: [ContentConfiguration]
    /// Resolve auxiliary configurations against the primary's video first (see above).
    public var optimizesAuxiliaryContentConfigurations: Bool
    /// Also download the assets that HLS interstitials play (named by X-ASSET-URI or listed
    /// in an X-ASSET-LIST), so ads and other interstitials work offline. Default false, as
    /// in AVFoundation. See `InterstitialAssets`.
    public var downloadsInterstitialAssets: Bool
    /// Also download the I-frame playlist that goes with each downloaded video variant
    /// (`IFrameMatching`), so scrubbing previews and fast-forward work offline. Its byte
    /// ranges usually point into the video segments being downloaded anyway, and are then
    /// mapped onto the local copies without fetching anything. Default true.
    public var downloadsIFramePlaylists: Bool

    /// A configuration for `asset` with the given content configurations and options.
    public init(
        asset: URL, title: String, artworkURL: URL? = nil,
        primaryContentConfiguration: ContentConfiguration = ContentConfiguration(),
        auxiliaryContentConfigurations: [ContentConfiguration] = [],
        optimizesAuxiliaryContentConfigurations: Bool = true, downloadsInterstitialAssets: Bool = false,
        downloadsIFramePlaylists: Bool = true
    ) {
        self.downloadsInterstitialAssets = downloadsInterstitialAssets
        self.downloadsIFramePlaylists = downloadsIFramePlaylists
        self.asset = asset
        self.title = title
        self.artworkURL = artworkURL
        self.primaryContentConfiguration = primaryContentConfiguration
        self.auxiliaryContentConfigurations = auxiliaryContentConfigurations
        self.optimizesAuxiliaryContentConfigurations = optimizesAuxiliaryContentConfigurations
    }

    /// How each configuration was resolved, for reporting before the download starts.
    public struct Resolution: Sendable {
        /// What the primary configuration resolved to.
        public var primary: ResolvedContent
        /// Per auxiliary configuration: what it resolved to and whether it reused the
        /// primary's video.
        public var auxiliary: [(content: ResolvedContent, sharesPrimaryVideo: Bool)]
    }

    /// Resolves every configuration against `playlist` (read from `url`, its final URL).
    public func plan(for playlist: MultivariantPlaylist, url: URL) throws -> (plan: DownloadPlan, resolution: Resolution) {
        var plan = DownloadPlan(source: url, multivariant: playlist)
        let variants = playlist.inspectedVariants(baseURL: url)
        func resolve(_ c: ContentConfiguration, among subset: [Variant]) throws -> ResolvedContent {
            do { return try c.resolve(variants: subset, in: playlist) } catch {
                throw DownloadError.selection("\(url.absoluteString): \(error)")
            }
        }
        func add(_ r: ResolvedContent, includingVideo: Bool) {
            if includingVideo { plan.addVariant(r.variant.stream) }
            for a in r.audioRenditions where a.uri != nil {
                if let declared = plan.rendition(type: .audio, groupID: a.groupID, name: a.name, language: a.language) { plan.addRendition(declared) }
            }
            for s in r.subtitleRenditions where s.uri != nil {
                if let declared = plan.rendition(type: .subtitles, groupID: s.groupID, name: s.name, language: s.language) { plan.addRendition(declared) }
            }
        }
        let primary = try resolve(primaryContentConfiguration, among: variants)
        if case .noQualifierMatched = primary.choice.reason {
            throw DownloadError.selection(
                "no variant of \(url.absoluteString) matches the preferred qualifiers: "
                    + primaryContentConfiguration.variantQualifiers.map(\.description).joined(separator: "; "))
        }
        add(primary, includingVideo: true)
        let primaryVideo = primary.variant.uri
        var auxiliary: [(ResolvedContent, Bool)] = []
        for aux in auxiliaryContentConfigurations {
            if optimizesAuxiliaryContentConfigurations {
                let sharing = variants.filter { $0.uri == primaryVideo }
                let r = try resolve(aux, among: sharing)
                if r.choice.reason != .noQualifierMatched {
                    // Declared with its own audio group so the bundle can reach its renditions.
                    add(r, includingVideo: true)
                    auxiliary.append((r, true))
                    continue
                }
            }
            let r = try resolve(aux, among: variants)
            if case .noQualifierMatched = r.choice.reason {
                throw DownloadError.selection(
                    "no variant matches the auxiliary qualifiers: " + aux.variantQualifiers.map(\.description).joined(separator: "; "))
            }
            add(r, includingVideo: true)
            auxiliary.append((r, r.variant.uri == primaryVideo))
        }
        if downloadsIFramePlaylists { plan.addIFramePlaylists() }
        return (plan, Resolution(primary: primary, auxiliary: auxiliary))
    }
}
