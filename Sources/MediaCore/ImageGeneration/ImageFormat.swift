/// An encoded still-image format with its quality setting.
public enum ImageFormat: Sendable, Hashable {
    /// JPEG; quality from 0 (smallest) to 1 (best).
    case jpeg(quality: Double = 0.8)
    case png
    /// WebP (lossy); quality from 0 to 1.
    case webp(quality: Double = 0.8)

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        }
    }

    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        }
    }

    /// The format for a file extension or name (`jpg`, `jpeg`, `png`, `webp`).
    public init?(name: String) {
        switch name.lowercased() {
        case "jpg", "jpeg": self = .jpeg()
        case "png": self = .png
        case "webp": self = .webp()
        default: return nil
        }
    }
}
