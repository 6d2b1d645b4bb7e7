/// A point in media time as a rational number (value / timescale), with the special values
/// zero, ±infinity, indefinite and invalid — the role `CMTime` plays in AVFoundation.
///
/// Numeric times compare and hash by their exact rational value, so `1/2` equals `3/6`.
/// Arithmetic keeps exactness where the result's timescale fits in 32 bits and otherwise
/// rounds to the larger timescale of the two operands.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// What kind of time this is; only `.numeric` times carry a value.
    public enum Kind: Sendable, Hashable {
        case numeric, invalid, positiveInfinity, negativeInfinity, indefinite
    }

    /// The numerator: ticks of `1 / timescale` seconds (0 for non-numeric times).
    public let value: Int64
    /// Ticks per second (0 for non-numeric times).
    public let timescale: Int32
    /// Numeric, or which special value.
    public let kind: Kind

    /// A numeric time of `value / timescale` seconds; a non-positive timescale gives `.invalid`.
    public init(value: Int64, timescale: Int32) {
        if timescale <= 0 {
            self = .invalid
        } else {
            self.value = value
            self.timescale = timescale
            self.kind = .numeric
        }
    }

    /// The time nearest to `seconds` at `preferredTimescale`; NaN gives `.invalid`, ±∞ the infinities.
    public init(seconds: Double, preferredTimescale: Int32 = 600) {
        if seconds.isNaN {
            self = .invalid
            return
        }
        if seconds == .infinity {
            self = .positiveInfinity
            return
        }
        if seconds == -.infinity {
            self = .negativeInfinity
            return
        }
        let scaled = (seconds * Double(preferredTimescale)).rounded()
        guard scaled.magnitude < 9.2e18 else {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
            return
        }
        self.init(value: Int64(scaled), timescale: preferredTimescale)
    }

    private init(kind: Kind) {
        self.value = 0
        self.timescale = 0
        self.kind = kind
    }

    /// Zero seconds.
    public static let zero = MediaTime(value: 0, timescale: 1)
    /// Not a time: the result of a non-positive timescale or of NaN seconds.
    public static let invalid = MediaTime(kind: .invalid)
    /// Later than every numeric time.
    public static let positiveInfinity = MediaTime(kind: .positiveInfinity)
    /// Earlier than every numeric time.
    public static let negativeInfinity = MediaTime(kind: .negativeInfinity)
    /// An unknown duration, such as a live stream's.
    public static let indefinite = MediaTime(kind: .indefinite)

    /// Whether this is anything but `.invalid`.
    public var isValid: Bool { kind != .invalid }
    /// Whether this carries a value (not a special time).
    public var isNumeric: Bool { kind == .numeric }
    /// Whether this is `.indefinite`.
    public var isIndefinite: Bool { kind == .indefinite }
    /// Whether this is `.positiveInfinity`.
    public var isPositiveInfinity: Bool { kind == .positiveInfinity }
    /// Whether this is `.negativeInfinity`.
    public var isNegativeInfinity: Bool { kind == .negativeInfinity }

    /// The time in seconds; NaN for invalid and indefinite times, ±infinity for the infinities.
    public var seconds: Double {
        switch kind {
        case .numeric: Double(value) / Double(timescale)
        case .positiveInfinity: .infinity
        case .negativeInfinity: -.infinity
        case .invalid, .indefinite: .nan
        }
    }

    /// This time expressed at `timescale`, rounding to nearest (ties away from zero).
    public func convertScale(_ newScale: Int32) -> MediaTime {
        guard kind == .numeric, newScale > 0 else { return newScale > 0 ? self : .invalid }
        if newScale == timescale { return self }
        let product = Int128(value) * Int128(newScale)
        let divisor = Int128(timescale)
        var quotient = product / divisor
        let remainder = product % divisor
        if (remainder.magnitude * 2) >= divisor.magnitude {
            quotient += product < 0 ? -1 : 1
        }
        guard let narrowed = Int64(exactly: quotient) else {
            return quotient > 0 ? .positiveInfinity : .negativeInfinity
        }
        return MediaTime(value: narrowed, timescale: newScale)
    }

    /// `value/timescale (seconds s)` for a numeric time, else the special value's name.
    public var description: String {
        switch kind {
        case .numeric: "\(value)/\(timescale) (\(seconds)s)"
        case .invalid: "invalid"
        case .positiveInfinity: "+infinity"
        case .negativeInfinity: "-infinity"
        case .indefinite: "indefinite"
        }
    }

    // MARK: Comparison and hashing by exact value

    /// Orders -infinity < numeric < +infinity < indefinite < invalid, numeric by exact value.
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        if lhs.kind == .numeric && rhs.kind == .numeric {
            return Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
        }
        return lhs.rank < rhs.rank
    }

    /// Numeric times are equal when their rational values are (`1/2 == 3/6`); special times when their kinds are.
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        if lhs.kind == .numeric && rhs.kind == .numeric {
            return Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
        }
        return lhs.kind == rhs.kind
    }

    /// Hashes the kind and, for a numeric time, the reduced fraction, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        if kind == .numeric {
            let divisor = Self.gcd(value.magnitude, UInt64(timescale))
            hasher.combine(value / Int64(divisor))
            hasher.combine(Int64(timescale) / Int64(divisor))
        }
    }

    private var rank: Int {
        switch kind {
        case .negativeInfinity: 0
        case .numeric: 1
        case .positiveInfinity: 2
        case .indefinite: 3
        case .invalid: 4
        }
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }
}
