import MediaCore

/// Prepares a video frame for Tesseract: grayscale, light-on-dark text turned dark-on-light,
/// small pictures enlarged, optionally binarised. Which steps help was measured on frames
/// with drawn text (see `scripts/bench/live-text.sh` and `PreprocessingTests`); the defaults
/// keep what lowered the character error rate.
public struct FramePreprocessor: Sendable, Hashable {
    /// How the picture is reduced to black and white before recognition.
    public enum Binarization: String, Sendable, Hashable, Codable, CaseIterable {
        /// Leave it to Tesseract (its own global Otsu threshold).
        case tesseract
        /// A global Otsu threshold applied here.
        case otsu
        /// Tesseract's Sauvola adaptive threshold (`thresholding_method` 2), for uneven backgrounds.
        case sauvola
    }

    /// Whether a frame whose background is darker than its text is inverted first.
    public var invertsLightOnDark: Bool
    /// Frames whose shorter side is below this many pixels are enlarged (2× or 3×) so their
    /// text reaches the size Tesseract reads best; 0 turns enlarging off.
    public var upscaleBelowShortSide: Int
    public var binarization: Binarization

    /// The measured defaults: inversion on, enlarge frames under 720 lines, Tesseract's threshold.
    public init(invertsLightOnDark: Bool = true, upscaleBelowShortSide: Int = 720, binarization: Binarization = .tesseract) {
        self.invertsLightOnDark = invertsLightOnDark
        self.upscaleBelowShortSide = upscaleBelowShortSide
        self.binarization = binarization
    }

    /// No pre-processing at all: the grayscale frame as it is (the baseline measurements compare against).
    public static let none = FramePreprocessor(invertsLightOnDark: false, upscaleBelowShortSide: 0, binarization: .tesseract)

    /// The picture Tesseract is given for `image`.
    func prepare(_ image: VideoImage) -> GrayImage {
        var gray = GrayImage(image)
        let threshold = gray.otsuThreshold
        if invertsLightOnDark {
            // Text is the minority class: when most pixels are darker than the split, the
            // background is dark and the text light.
            let counts = gray.histogram
            let dark = counts[0...threshold].reduce(0, +)
            if dark * 2 > gray.pixels.count { gray = gray.inverted() }
        }
        let shortSide = min(image.width, image.height)
        if upscaleBelowShortSide > 0, shortSide < upscaleBelowShortSide {
            let factor = shortSide * 3 <= upscaleBelowShortSide ? 3 : 2
            gray = gray.upscaled(by: factor)
        }
        if binarization == .otsu {
            gray = gray.binarized(threshold: gray.otsuThreshold)
        }
        return gray
    }
}
