/// One result of `ImageGenerator.images(for:)`: the picture for a requested time, or why there
/// is none — like `AVAssetImageGenerator.Images.Element`.
public enum GeneratedImage: Sendable {
    case success(requestedTime: MediaTime, image: VideoImage, actualTime: MediaTime)
    case failure(requestedTime: MediaTime, error: any Error)

    public var requestedTime: MediaTime {
        switch self {
        case .success(let time, _, _), .failure(let time, _): time
        }
    }

    /// The picture, or the error that prevented it.
    public var image: VideoImage {
        get throws {
            switch self {
            case .success(_, let image, _): return image
            case .failure(_, let error): throw error
            }
        }
    }

    /// The presentation time of the frame shown, or the error that prevented it.
    public var actualTime: MediaTime {
        get throws {
            switch self {
            case .success(_, _, let time): return time
            case .failure(_, let error): throw error
            }
        }
    }
}
