/// Settings every new player starts from, stored in the library.
public struct PlayerSettings: Codable, Sendable, Hashable {
    /// The rates the speed menu offers; `nil` means the system default speeds, empty hides the menu.
    public var speeds: [Double]?
    /// Whether skipping is by 10 seconds (the only interval today; kept for the API's shape).
    public var skipInterval: Double
    /// Whether a paused frame is analysed for text (Live Text), like `allowsVideoFrameAnalysis`.
    public var allowsVideoFrameAnalysis: Bool = true
    /// How long, in seconds, a paused frame must stay still before it is analysed.
    public var videoFrameAnalysisDelay: Double = 0.5
    /// The most speeds a speed menu can offer.
    public static let maximumSpeeds = 16

    public init(speeds: [Double]? = nil, skipInterval: Double = 10) {
        self.speeds = speeds
        self.skipInterval = skipInterval
    }

    enum CodingKeys: String, CodingKey { case speeds, skipInterval, allowsVideoFrameAnalysis, videoFrameAnalysisDelay }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        speeds = try container.decodeIfPresent([Double].self, forKey: .speeds)
        skipInterval = try container.decodeIfPresent(Double.self, forKey: .skipInterval) ?? 10
        allowsVideoFrameAnalysis = try container.decodeIfPresent(Bool.self, forKey: .allowsVideoFrameAnalysis) ?? true
        videoFrameAnalysisDelay = try container.decodeIfPresent(Double.self, forKey: .videoFrameAnalysisDelay) ?? 0.5
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(speeds, forKey: .speeds)
        try container.encode(skipInterval, forKey: .skipInterval)
        try container.encode(allowsVideoFrameAnalysis, forKey: .allowsVideoFrameAnalysis)
        try container.encode(videoFrameAnalysisDelay, forKey: .videoFrameAnalysisDelay)
    }
}
