/// What `HLSPackager` makes: the video ladder, segment length and trick-play outputs.
public struct PackagingOptions: Sendable {
    /// Heights of the video ladder (such as 1080, 720, 360), each encoded with libx264; rungs
    /// taller than the source are left out. `nil` packages the source video once, copied when
    /// its codec is HLS-compatible.
    public var ladder: [Int]?
    /// Audio codecs (FFmpeg names) copied as they are; other audio is encoded as AAC. The
    /// default is every codec HLS allows; a browser player that only decodes AAC narrows it.
    public var copyableAudioCodecs: Set<String> = HLSPackager.copyableAudio
    /// Target media segment length in seconds.
    public var segmentDuration: Double = 6
    /// Seconds between thumbnails in the image playlist and the WebVTT sprite track.
    public var thumbnailInterval: Double = 5
    /// Thumbnail width in the tiles (height follows the aspect).
    public var thumbnailWidth = 160
    public var tileColumns = 5
    public var tileRows = 4
    /// Whether to make the I-frame playlist.
    public var makesIFramePlaylist = true
    /// Whether to make the image playlist and WebVTT thumbnail sprites.
    public var makesImagePlaylist = true

    public init(ladder: [Int]? = nil) {
        self.ladder = ladder
    }
}
