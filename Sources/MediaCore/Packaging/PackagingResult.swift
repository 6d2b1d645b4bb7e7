public import HLS

/// What `HLSPackager.package(to:)` wrote.
public struct PackagingResult: Sendable {
    /// One written rendition: its playlist (relative to the output directory) and how it was made.
    public struct Rendition: Sendable {
        public enum Method: String, Sendable { case copied, encoded }
        public var kind: AssetTrack.MediaType
        public var playlist: String
        public var method: Method
        public var sourceTrack: Int
    }

    public var directory: String
    /// Path of `master.m3u8`.
    public var multivariantPath: String
    public var multivariant: MultivariantPlaylist
    public var renditions: [Rendition]
    /// Warnings from strictly parsing every written playlist (errors fail the packaging).
    public var warnings: [String]
}
