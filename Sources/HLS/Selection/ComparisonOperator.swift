/// A numeric comparison, for the qualifier constructors (`channelCount(.lessThanOrEqual, 6)`).
public enum ComparisonOperator: String, Sendable, Hashable, Codable, CaseIterable {
    case lessThan = "<", lessThanOrEqual = "<=", equal = "==", notEqual = "!=", greaterThanOrEqual = ">="
    case greaterThan = ">"

    public func compare(_ a: Double, _ b: Double) -> Bool {
        switch self {
        case .lessThan: a < b
        case .lessThanOrEqual: a <= b
        case .equal: a == b
        case .notEqual: a != b
        case .greaterThanOrEqual: a >= b
        case .greaterThan: a > b
        }
    }
}

/// A condition on one audio rendition (one media selection option of a variant). Conditions
/// given together to `VariantPredicate.audioRendition(_:where:)` must hold for the same
/// rendition. A condition on a value the rendition does not declare (no CHANNELS) is false.
public enum AudioRenditionCondition: Sendable, Hashable, CustomStringConvertible {
    case channelCount(ComparisonOperator, Int)
    case sampleRate(ComparisonOperator, Int)
    case binaural(Bool)
    case immersive(Bool)
    case downmix(Bool)

    public func matches(_ r: Variant.AudioRendition) -> Bool {
        switch self {
        case .channelCount(let op, let n): r.channelCount.map { op.compare(Double($0), Double(n)) } ?? false
        case .sampleRate(let op, let n): r.sampleRate.map { op.compare(Double($0), Double(n)) } ?? false
        case .binaural(let b): r.isBinaural == b
        case .immersive(let b): r.isImmersive == b
        case .downmix(let b): r.isDownmix == b
        }
    }

    public var description: String {
        switch self {
        case .channelCount(let op, let n): "channelCount \(op.rawValue) \(n)"
        case .sampleRate(let op, let n): "sampleRate \(op.rawValue) \(n)"
        case .binaural(let b): "isBinaural == \(b ? "TRUE" : "FALSE")"
        case .immersive(let b): "isImmersive == \(b ? "TRUE" : "FALSE")"
        case .downmix(let b): "isDownmix == \(b ? "TRUE" : "FALSE")"
        }
    }
}
