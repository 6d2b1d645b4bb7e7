public import Foundation
public import HLS
public import JSONDocument

/// What the caller says about a download for its `metadata.json`.
public struct BundleMetadataInput: Sendable {
    /// The title to show.
    public var title: String
    /// The multivariant playlist downloaded from.
    public var sourceURL: URL
    /// An image to download into the bundle as its artwork.
    public var artworkURL: URL?
    /// The configuration as the user gave it (qualifiers, selections), recorded verbatim.
    public var configuration: JSONValue

    /// The metadata input for a download of `sourceURL` titled `title`.
    public init(title: String, sourceURL: URL, artworkURL: URL? = nil, configuration: JSONValue = .object([])) {
        self.title = title
        self.sourceURL = sourceURL
        self.artworkURL = artworkURL
        self.configuration = configuration
    }
}

/// What ended up in a bundle: each downloaded playlist with its folder and size.
public struct BundleSummary: Sendable, Hashable {
    /// One downloaded media playlist.
    public struct Item: Sendable, Hashable {
        /// What it is for: video, audio, subtitles or I-frames.
        public var role: DownloadPlan.Role
        /// Its folder in the bundle.
        public var folder: String
        /// The media playlist it was downloaded from.
        public var sourceURL: URL
        /// Bytes written for it.
        public var bytes: Int64
        /// The variant's `BANDWIDTH`, bits per second, for a variant.
        public var bandwidth: Int?
        /// The variant's `RESOLUTION`, for a video variant.
        public var resolution: Resolution?
        /// The variant's `CODECS`, for a variant.
        public var codecs: [String]
        /// The rendition's `LANGUAGE`, for an alternative rendition.
        public var language: String?
        /// The rendition's `NAME`, for an alternative rendition.
        public var name: String?
        /// The rendition's `GROUP-ID`, for an alternative rendition.
        public var groupID: String?
    }
    /// The downloaded media playlists, in plan order.
    public var items: [Item]
    /// The artwork's file name in the bundle, when artwork was downloaded.
    public var artwork: String?
    /// What was left out and why (an I-frame playlist that could not be taken offline).
    public var warnings: [String] = []
    /// Interstitial assets taken offline, each in its own folder.
    public var interstitials: [Interstitial] = []

    /// One interstitial asset taken offline.
    public struct Interstitial: Sendable, Hashable {
        /// Its folder in the bundle.
        public var folder: String
        /// Where it was downloaded from.
        public var sourceURL: URL
        /// Bytes written for it.
        public var bytes: Int64
    }
    /// Bytes of every item and interstitial added up.
    public var totalBytes: Int64 { items.reduce(0) { $0 + $1.bytes } + interstitials.reduce(0) { $0 + $1.bytes } }
}

/// Writes the bundle's own files: the local multivariant playlist listing only what was
/// downloaded (relative URIs), and `metadata.json`.
public enum BundleWriter {
    /// The bundle's root playlist (`BundleLayout.multivariantPlaylist`, as packaged bundles).
    public static let playlistName = BundleLayout.multivariantPlaylist

    /// The multivariant playlist of the bundle: downloaded variants and renditions only,
    /// groups kept only where a downloaded rendition (or an in-band one) belongs to them.
    public static func multivariant(for plan: DownloadPlan) -> MultivariantPlaylist {
        var out = MultivariantPlaylist()
        out.version = plan.multivariant.version
        out.independentSegments = plan.multivariant.independentSegments
        out.start = plan.multivariant.start
        out.sessionData = plan.multivariant.sessionData.filter { $0.uri == nil }
        var renditions: [Rendition] = []
        for e in plan.entries where e.role != .video {
            guard var r = e.rendition else { continue }
            r.uri = BundleLayout.mediaPlaylist(inFolder: e.folder)
            renditions.append(r)
        }
        var groups = Set(renditions.map { "\($0.type.rawValue)/\($0.groupID)" })
        for declared in plan.declaredVariants {
            guard let folder = plan.folder(for: declared) else { continue }
            var v = declared
            v.uri = BundleLayout.mediaPlaylist(inFolder: folder)
            // In-band (URI-less) renditions of a group the variant uses stay described.
            for (type, group) in [(MediaType.audio, v.audio), (.subtitles, v.subtitles), (.closedCaptions, v.closedCaptions)] {
                guard let group else { continue }
                for r in plan.multivariant.renditions(ofType: type, group: group) where r.uri == nil && !renditions.contains(r) {
                    renditions.append(r)
                    groups.insert("\(type.rawValue)/\(group)")
                }
            }
            if let a = v.audio, !groups.contains("AUDIO/\(a)") { v.audio = nil }
            if let s = v.subtitles, !groups.contains("SUBTITLES/\(s)") { v.subtitles = nil }
            if let c = v.closedCaptions, !groups.contains("CLOSED-CAPTIONS/\(c)") { v.closedCaptions = nil }
            v.attributes.pathwayID = nil
            out.variants.append(v)
        }
        out.renditions = renditions
        for e in plan.entries where e.role == .iFrames {
            guard var stream = e.iFrameVariant else { continue }
            stream.uri = BundleLayout.mediaPlaylist(inFolder: e.folder)
            stream.attributes.pathwayID = nil
            out.iFrameVariants.append(stream)
        }
        return out
    }

    static func summary(plan: DownloadPlan, sizes: [String: Int64], artwork: String?) -> BundleSummary {
        BundleSummary(
            items: plan.entries.map { e in
                let attributes = e.variant?.attributes ?? e.iFrameVariant?.attributes
                return BundleSummary.Item(
                    role: e.role, folder: e.folder, sourceURL: e.url, bytes: sizes[e.folder] ?? 0,
                    bandwidth: attributes?.bandwidth, resolution: attributes?.resolution,
                    codecs: attributes?.codecs ?? [], language: e.rendition?.language,
                    name: e.rendition?.name, groupID: e.rendition?.groupID)
            }, artwork: artwork)
    }

    static func metadata(summary: BundleSummary, input: BundleMetadataInput, startedAt: String, completedAt: String) -> BundleMetadata {
        BundleMetadata(
            title: input.title, sourceURL: input.sourceURL.absoluteString, playlist: playlistName, artwork: summary.artwork,
            configuration: input.configuration,
            items: summary.items.map { i in
                BundleMetadata.Item(
                    role: i.role.rawValue, folder: i.folder, sourceURL: i.sourceURL.absoluteString, bytes: Int(i.bytes),
                    bandwidth: i.bandwidth, resolution: i.resolution?.description, codecs: i.codecs,
                    language: i.language, name: i.name, groupID: i.groupID)
            },
            interstitials: summary.interstitials.map {
                BundleMetadata.Interstitial(folder: $0.folder, sourceURL: $0.sourceURL.absoluteString, bytes: Int($0.bytes))
            },
            totalBytes: Int(summary.totalBytes), warnings: summary.warnings, startedAt: startedAt, completedAt: completedAt)
    }
}
