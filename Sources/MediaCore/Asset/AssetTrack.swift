/// One elementary stream of an asset with the properties a player or packager decides on:
/// what kind of media it is, its codec, timing, picture geometry and audio layout.
///
/// Tracks are values read when the asset's `.tracks` property loads, so their properties are
/// plain synchronous accessors.
public struct AssetTrack: Sendable, Hashable, Identifiable {
    /// What the stream carries; `attachment` is a file in the container (a font), `data` timed metadata.
    public enum MediaType: String, Sendable, Hashable, Codable {
        case video, audio, subtitle, data, attachment, unknown
    }

    /// How the picture's values map to light.
    public enum ColorTransfer: String, Sendable, Hashable, Codable {
        /// Standard dynamic range (BT.709, BT.601, sRGB, unspecified).
        case sdr
        /// HDR10 / Dolby Vision perceptual quantiser (SMPTE ST 2084).
        case pq
        /// Hybrid log-gamma (ARIB STD-B67).
        case hlg
    }

    /// The stream index in the container.
    public var id: Int
    /// What the stream carries.
    public var mediaType: MediaType
    /// FFmpeg's codec name, such as `h264`, `hevc`, `aac`, `subrip`.
    public var codec: String
    /// The codec profile, such as `High` or `Main 10`, when known.
    public var profile: String?
    /// When the stream starts and how long it lasts, on the asset's timeline.
    public var timeRange: MediaTimeRange
    /// Coded picture size in pixels (before pixel aspect and rotation).
    public var naturalSize: PixelSize?
    /// The shape of one pixel; `nil` when the container leaves it unspecified (square).
    public var pixelAspectRatio: PixelAspectRatio?
    /// Clockwise rotation to apply for display: 0, 90, 180 or 270.
    public var displayRotation: Int
    /// The size a viewer sees: pixel aspect and rotation applied.
    public var presentationSize: PixelSize? {
        guard let naturalSize else { return nil }
        var width = naturalSize.width
        if let ratio = pixelAspectRatio, !ratio.isSquare {
            width = Int((Double(width) * Double(ratio.horizontalSpacing) / Double(ratio.verticalSpacing)).rounded())
        }
        return displayRotation % 180 == 0
            ? PixelSize(width: width, height: naturalSize.height)
            : PixelSize(width: naturalSize.height, height: width)
    }
    /// Average frames per second (for variable-frame-rate video, the mean rate).
    public var nominalFrameRate: Double?
    /// True when frames are not evenly spaced.
    public var isVariableFrameRate: Bool
    /// ISO 639 language code from the container, when tagged.
    public var language: String?
    /// The track's title or handler name, when tagged.
    public var title: String?
    /// Audio channels.
    public var channelCount: Int?
    /// FFmpeg's layout description, such as `stereo` or `5.1(side)`.
    public var channelLayout: String?
    /// Audio samples per second, in hertz.
    public var sampleRate: Int?
    /// Bits per second, when the container or codec says.
    public var estimatedDataRate: Int?
    /// How a video's values map to light; nil for other media.
    public var colorTransfer: ColorTransfer?
    /// Bits per colour component (8, 10, 12) for video.
    public var bitDepth: Int?
    /// FFmpeg's pixel format name, such as `yuv420p10le`.
    public var pixelFormat: String?
    /// The container marks it as the stream to play by default.
    public var isDefault: Bool
    /// True for a still picture attached as cover art rather than video.
    public var isAttachedPicture: Bool
    /// Codec, profile, level, geometry, sample format and decoder configuration: two tracks
    /// with the same signature can be joined without re-encoding.
    var codecSignature = ""
}

/// A width and height in pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }
}

/// The shape of a pixel as relative width and height, like `AVPixelAspectRatio`.
public struct PixelAspectRatio: Sendable, Hashable, Codable {
    /// A pixel's relative width.
    public var horizontalSpacing: Int
    /// A pixel's relative height.
    public var verticalSpacing: Int
    /// A ratio of `horizontalSpacing` : `verticalSpacing` (`4:3` for anamorphic 1440-wide HD).
    public init(horizontalSpacing: Int, verticalSpacing: Int) {
        self.horizontalSpacing = horizontalSpacing
        self.verticalSpacing = verticalSpacing
    }
    /// Whether pixels are square (a zero or negative spacing counts as unspecified, so square).
    public var isSquare: Bool {
        horizontalSpacing <= 0 || verticalSpacing <= 0 || horizontalSpacing == verticalSpacing
    }
}
