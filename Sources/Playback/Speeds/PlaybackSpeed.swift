/// A playback rate a person can pick, with the names a speed menu shows for it.
///
/// Modelled on `AVPlaybackSpeed`: `rate` is what the media plays at, `localizedName` is the
/// spoken/long name ("Double speed", 「2倍速」) and `localizedNumericName` the short label
/// ("2×"). Two speeds are the same speed when their rates are equal.
public struct PlaybackSpeed: Sendable, Codable {
    public let rate: Double
    public let localizedName: String
    public let localizedNumericName: String

    /// A speed with explicit names, for players that bring their own wording.
    public init(rate: Double, localizedName: String, localizedNumericName: String? = nil) {
        self.rate = rate
        self.localizedName = localizedName
        self.localizedNumericName = localizedNumericName ?? PlaybackSpeed.numericName(for: rate)
    }

    /// A speed named in the given interface language.
    public init(rate: Double, language: PlayerLanguage) {
        self.init(
            rate: rate,
            localizedName: PlaybackSpeed.name(for: rate, language: language),
            localizedNumericName: PlaybackSpeed.numericName(for: rate)
        )
    }

    /// The speeds a player offers unless it is given its own list: 0.5, 1, 1.25, 1.5 and 2×.
    public static func systemDefaultSpeeds(language: PlayerLanguage = .english) -> [PlaybackSpeed] {
        systemDefaultRates.map { PlaybackSpeed(rate: $0, language: language) }
    }

    /// The system default speeds in English.
    public static var systemDefaultSpeeds: [PlaybackSpeed] { systemDefaultSpeeds(language: .english) }

    /// The rates of the system default speeds, slowest first.
    public static let systemDefaultRates: [Double] = [0.5, 1, 1.25, 1.5, 2]

    /// The fastest rate a player offers.
    public static let maximumRate: Double = 16

    /// The most speeds one speed menu offers. Every way a speed list enters (a session's
    /// body, a player's `?speeds=`, the player settings) is held to it, and so is the session.
    public static let maximumCount = 16

    /// Whether a speed menu may offer `rate`: a finite number above 0 and at most 16×.
    public static func isOfferable(_ rate: Double) -> Bool {
        rate.isFinite && rate > 0 && rate <= maximumRate
    }

    /// The same speed named in another language (custom names are replaced).
    public func localized(_ language: PlayerLanguage) -> PlaybackSpeed {
        PlaybackSpeed(rate: rate, language: language)
    }

    /// "2×", "0.5×", "1.25×": the rate with at most two decimals and no trailing zeros.
    public static func numericName(for rate: Double) -> String {
        formatRate(rate) + "×"
    }

    /// The long name of a rate: "Double speed" / 「2倍速」, "Normal speed" / 「標準速度」.
    public static func name(for rate: Double, language: PlayerLanguage) -> String {
        switch language {
        case .english:
            switch rate {
            case 1: return "Normal speed"
            case 2: return "Double speed"
            case 0.5: return "Half speed"
            default: return "\(formatRate(rate))× speed"
            }
        case .japanese:
            switch rate {
            case 1: return "標準速度"
            default: return "\(formatRate(rate))倍速"
            }
        }
    }

    static func formatRate(_ rate: Double) -> String {
        // Speeds a session offers are finite and at most 16×; anything else is named as is
        // rather than trapping in the conversion below.
        guard let hundredths = Int(exactly: (rate * 100).rounded()) else { return "\(rate)" }
        let whole = hundredths / 100
        var fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        var digits = fraction < 10 ? "0\(fraction)" : String(fraction)
        while digits.hasSuffix("0") {
            digits.removeLast()
            fraction /= 10
        }
        return "\(whole).\(digits)"
    }
}

extension PlaybackSpeed: Hashable {
    public static func == (lhs: PlaybackSpeed, rhs: PlaybackSpeed) -> Bool { lhs.rate == rhs.rate }
    public func hash(into hasher: inout Hasher) { hasher.combine(rate) }
}
