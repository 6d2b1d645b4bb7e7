public import HLS

/// What `HLSPackager.package(to:)` wrote.
public struct PackagingResult: Sendable {
    /// One written rendition: its playlist (relative to the output directory) and how it was made.
    public struct Rendition: Sendable {
        /// Whether the stream was copied as it was (remuxed) or encoded again.
        public enum Method: String, Sendable { case copied, encoded }
        /// Video, audio or subtitle.
        public var kind: AssetTrack.MediaType
        /// Its media playlist, relative to the output directory.
        public var playlist: String
        /// Copied or encoded.
        public var method: Method
        /// The source track it was made from (`AssetTrack.id`).
        public var sourceTrack: Int
    }

    /// The output directory.
    public var directory: String
    /// Path of `master.m3u8`.
    public var multivariantPath: String
    /// The multivariant playlist as written.
    public var multivariant: MultivariantPlaylist
    /// Every rendition written.
    public var renditions: [Rendition]
    /// Warnings from strictly parsing every written playlist (errors fail the packaging).
    public var warnings: [String]
}
