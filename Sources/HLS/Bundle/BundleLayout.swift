/// The on-disk contract of an HLS bundle — a packaged library asset and an offline download
/// alike: every file and folder name, in one place. The packager, the downloader, the
/// importer, the manifest builder and the server name bundle files only through this type.
///
/// ```
/// master.m3u8                 the multivariant playlist (the bundle's entry)
/// <rendition>/index.m3u8      each variant's, audio's or subtitles' media playlist
/// <rendition>/init.mp4        its fMP4 initialisation section (packaged bundles)
/// <rendition>/segment-00001.m4s
/// iframes/iframes.m3u8        the I-frame playlist (packaged bundles)
/// images/images.m3u8          the image (trick-play) playlist, when there is one
/// poster.jpg                  the poster frame or artwork
/// trickplay.jpg + .json       the scrubbing sprite sheet and its description
/// metadata.json               `BundleMetadata`: title, source, what was downloaded
/// interstitial-N/index.m3u8   an offline download's interstitial assets
/// ```
///
/// Bundles written before this contract still read: downloads then named their multivariant
/// playlist `index.m3u8` (`legacyMultivariantPlaylists`) and packaged renditions
/// `stream.m3u8` (named by the multivariant playlist, so nothing needs to know).
public enum BundleLayout {
    /// The multivariant playlist at the bundle's root.
    public static let multivariantPlaylist = "master.m3u8"
    /// Names the root playlist had in bundles written before `multivariantPlaylist` was the rule.
    public static let legacyMultivariantPlaylists = ["index.m3u8"]
    /// The media playlist inside each rendition's folder (and an interstitial asset's entry).
    public static let mediaPlaylistName = "index.m3u8"
    /// The fMP4 initialisation section of a packaged rendition.
    public static let initSection = "init.mp4"
    /// The segment file pattern of a packaged rendition (printf-style, FFmpeg's hls muxer).
    public static let segmentPattern = "segment-%05d.m4s"
    /// The I-frame playlist of a packaged bundle (from its largest video variant).
    public static let iFramePlaylist = "iframes/iframes.m3u8"
    /// The image (trick-play) playlist of a packaged bundle.
    public static let imagesPlaylist = "images/images.m3u8"
    /// The poster frame, or the artwork a download or an override brought.
    public static let poster = "poster.jpg"
    /// The scrubbing sprite sheet and the JSON that says where each thumbnail is.
    public static let trickPlayImage = "trickplay.jpg"
    public static let trickPlayDescription = "trickplay.json"
    /// `BundleMetadata`, as JSON.
    public static let metadata = "metadata.json"
    /// Subtitle files added to a packaged bundle (`<id>.vtt` and its playlist `<id>.m3u8`).
    public static let subtitlesFolder = "subtitles"

    /// A rendition's media playlist, relative to the bundle root.
    public static func mediaPlaylist(inFolder folder: String) -> String { "\(folder)/\(mediaPlaylistName)" }

    /// The root playlist names to try, best first.
    public static var multivariantCandidates: [String] { [multivariantPlaylist] + legacyMultivariantPlaylists }
}
