extension MediaTime {
    /// Sum of two times. Invalid or indefinite operands give invalid/indefinite; +∞ + −∞ is invalid.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        switch (lhs.kind, rhs.kind) {
        case (.invalid, _), (_, .invalid): return .invalid
        case (.positiveInfinity, .negativeInfinity), (.negativeInfinity, .positiveInfinity): return .invalid
        case (.indefinite, _), (_, .indefinite): return .indefinite
        case (.positiveInfinity, _), (_, .positiveInfinity): return .positiveInfinity
        case (.negativeInfinity, _), (_, .negativeInfinity): return .negativeInfinity
        case (.numeric, .numeric):
            let (l, r) = commonScale(lhs, rhs)
            let (sum, overflow) = l.value.addingReportingOverflow(r.value)
            if overflow { return sum < 0 ? .positiveInfinity : .negativeInfinity }
            return MediaTime(value: sum, timescale: l.timescale)
        }
    }

    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        lhs + (-rhs)
    }

    public static prefix func - (time: MediaTime) -> MediaTime {
        switch time.kind {
        case .numeric: MediaTime(value: -time.value, timescale: time.timescale)
        case .positiveInfinity: .negativeInfinity
        case .negativeInfinity: .positiveInfinity
        case .invalid, .indefinite: time
        }
    }

    /// The time scaled by an integer factor.
    public static func * (time: MediaTime, factor: Int64) -> MediaTime {
        switch time.kind {
        case .numeric:
            let (product, overflow) = time.value.multipliedReportingOverflow(by: factor)
            if overflow { return (time.value < 0) != (factor < 0) ? .negativeInfinity : .positiveInfinity }
            return MediaTime(value: product, timescale: time.timescale)
        case .positiveInfinity, .negativeInfinity:
            if factor == 0 { return .invalid }
            return factor < 0 ? -time : time
        case .invalid, .indefinite: return time
        }
    }

    /// The smaller of two times (an invalid operand gives the other).
    public static func minimum(_ a: MediaTime, _ b: MediaTime) -> MediaTime {
        if !a.isValid { return b }
        if !b.isValid { return a }
        return a < b ? a : b
    }

    /// The larger of two times (an invalid operand gives the other).
    public static func maximum(_ a: MediaTime, _ b: MediaTime) -> MediaTime {
        if !a.isValid { return b }
        if !b.isValid { return a }
        return a < b ? b : a
    }

    /// Both times at one timescale: exact (least common multiple) when it fits, else the larger one.
    static func commonScale(_ a: MediaTime, _ b: MediaTime) -> (MediaTime, MediaTime) {
        if a.timescale == b.timescale { return (a, b) }
        let g = gcd(UInt64(a.timescale), UInt64(b.timescale))
        let lcm = UInt64(a.timescale) / g * UInt64(b.timescale)
        let scale = lcm <= UInt64(Int32.max) ? Int32(lcm) : max(a.timescale, b.timescale)
        return (a.convertScale(scale), b.convertScale(scale))
    }
}
