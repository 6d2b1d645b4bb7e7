public import Foundation
public import HLS

/// What a download fetches: the media playlists (video variants, audio and subtitle
/// renditions) chosen from one multivariant playlist, each with the folder it lands in.
/// Built from variant choices; the same choices always give the same plan, so a resumed
/// download writes to the same places.
public struct DownloadPlan: Sendable, Hashable {
    /// The multivariant playlist's final URL.
    public var source: URL
    /// The multivariant playlist the choices were made from.
    public var multivariant: MultivariantPlaylist
    /// The media playlists to download, in the order they were added.
    public var entries: [Entry]
    /// The variant streams the bundle's multivariant playlist declares: each chosen variant
    /// as the source declared it (one video playlist may be declared with several audio
    /// groups, and is still downloaded once).
    public var declaredVariants: [VariantStream] = []

    /// What a downloaded media playlist is for.
    public enum Role: String, Sendable, Hashable, Codable { case video, audio, subtitles, iFrames }

    /// One media playlist to download.
    public struct Entry: Sendable, Hashable {
        /// What the playlist is for.
        public var role: Role
        /// Absolute URL of the media playlist.
        public var url: URL
        /// Folder inside the bundle, e.g. `video-1280x720-2000000`, `audio-aac-en`.
        public var folder: String
        /// For video: the variant as declared in the source playlist.
        public var variant: VariantStream?
        /// For audio and subtitles: the rendition as declared.
        public var rendition: Rendition?
        /// For I-frame playlists: the `EXT-X-I-FRAME-STREAM-INF` as declared.
        public var iFrameVariant: IFrameVariantStream?
    }

    /// An empty plan for `multivariant`, read from `source` (its final URL).
    public init(source: URL, multivariant: MultivariantPlaylist) {
        self.source = source
        self.multivariant = multivariant
        self.entries = []
    }

    /// Adds a video variant (nothing if it is already planned).
    public mutating func addVariant(_ variant: VariantStream) {
        if !declaredVariants.contains(variant) { declaredVariants.append(variant) }
        let url = URIResolution.resolve(variant.uri, against: source)
        guard !entries.contains(where: { $0.role == .video && $0.url.absoluteString == url }), let u = URL(string: url) else { return }
        let codecs = variant.attributes.codecs.map(CodecDescription.init)
        let audioOnly = !codecs.isEmpty && codecs.allSatisfy { $0.kind == .audio }
        let size = variant.attributes.resolution.map { "\($0.width)x\($0.height)" } ?? (audioOnly ? "audio" : "media")
        let folder = uniqueFolder(["video", size, variant.attributes.bandwidth.map(String.init)].compactMap { $0 }.joined(separator: "-"))
        entries.append(Entry(role: .video, url: u, folder: folder, variant: variant, rendition: nil, iFrameVariant: nil))
    }

    /// Adds the I-frame playlist that goes with each planned video variant (see
    /// `IFrameMatching`); one I-frame playlist matched by several variants is planned once.
    public mutating func addIFramePlaylists() {
        for video in videoEntries {
            guard let variant = video.variant,
                let match = IFrameMatching.best(for: variant, among: multivariant.iFrameVariants, source: source),
                let u = URL(string: URIResolution.resolve(match.uri, against: source)),
                !entries.contains(where: { $0.role == .iFrames && $0.url == u })
            else { continue }
            let size = match.attributes.resolution.map { "\($0.width)x\($0.height)" }
            let folder = uniqueFolder(["iframes", size, match.attributes.bandwidth.map(String.init)].compactMap { $0 }.joined(separator: "-"))
            entries.append(Entry(role: .iFrames, url: u, folder: folder, variant: nil, rendition: nil, iFrameVariant: match))
        }
    }

    /// Adds an audio or subtitle rendition with its own URI (muxed ones need nothing).
    public mutating func addRendition(_ rendition: Rendition) {
        guard let uri = rendition.uri, let u = URL(string: URIResolution.resolve(uri, against: source)) else { return }
        let role: Role = rendition.type == .subtitles ? .subtitles : .audio
        guard !entries.contains(where: { $0.url == u && $0.rendition?.groupID == rendition.groupID }) else { return }
        let label = [rendition.groupID, rendition.language ?? rendition.name].map(Self.slug).joined(separator: "-")
        entries.append(Entry(role: role, url: u, folder: uniqueFolder("\(role.rawValue)-\(label)"), variant: nil, rendition: rendition, iFrameVariant: nil))
    }

    /// The declared rendition behind an inspected audio or subtitle rendition.
    /// The first rendition of the multivariant playlist with this type, group and language, and
    /// this name unless `name` is nil.
    public func rendition(type: MediaType, groupID: String?, name: String?, language: String?) -> Rendition? {
        multivariant.renditions.first { $0.type == type && $0.groupID == groupID && $0.name == (name ?? $0.name) && $0.language == language }
    }

    /// The entries of video variants, in plan order.
    public var videoEntries: [Entry] { entries.filter { $0.role == .video } }

    /// The folder a declared variant's video playlist is downloaded to.
    public func folder(for variant: VariantStream) -> String? {
        let url = URIResolution.resolve(variant.uri, against: source)
        return entries.first { $0.role == .video && $0.url.absoluteString == url }?.folder
    }

    private func uniqueFolder(_ base: String) -> String {
        var name = Self.slug(base)
        var n = 2
        while entries.contains(where: { $0.folder == name }) {
            name = Self.slug(base) + "-\(n)"
            n += 1
        }
        return name
    }

    static func slug(_ s: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let mapped = String(s.map { allowed.contains($0) ? $0 : "_" })
        return mapped.isEmpty ? "_" : mapped
    }
}
