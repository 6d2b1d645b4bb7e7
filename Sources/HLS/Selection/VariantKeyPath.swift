import Foundation

/// A key path of the predicate language: a named property of an inspected `Variant`, with
/// the type a predicate may compare it with. Key paths under `audioAttributes.renditions`
/// and `subtitleRenditions` have one value per rendition; `videoAttributes.codecTypes`,
/// `audioAttributes.formatIDs`, `codecs` and `badges` are lists. Both kinds are collections:
/// a predicate uses `CONTAINS` on them or puts `ANY`, `ALL` or `NONE` in front.
public enum VariantKeyPath: String, CaseIterable, Sendable, Hashable, Codable, PredicateKey {
    case peakBitRate
    case averageBitRate
    case score
    case uri
    case codecs
    case badges
    case presentationWidth = "videoAttributes.presentationSize.width"
    case presentationHeight = "videoAttributes.presentationSize.height"
    case videoRange = "videoAttributes.videoRange"
    case codecTypes = "videoAttributes.codecTypes"
    case nominalFrameRate = "videoAttributes.nominalFrameRate"
    case bitDepth = "videoAttributes.bitDepth"
    case videoLayout = "videoAttributes.videoLayout"
    case hdcpLevel = "videoAttributes.hdcpLevel"
    case formatIDs = "audioAttributes.formatIDs"
    case audioChannelCount = "audioAttributes.renditions.channelCount"
    case audioSampleRate = "audioAttributes.renditions.sampleRate"
    case audioLanguage = "audioAttributes.renditions.language"
    case audioName = "audioAttributes.renditions.name"
    case audioIsImmersive = "audioAttributes.renditions.isImmersive"
    case audioIsBinaural = "audioAttributes.renditions.isBinaural"
    case audioIsDownmix = "audioAttributes.renditions.isDownmix"
    case subtitleLanguage = "subtitleRenditions.language"
    case subtitleName = "subtitleRenditions.name"

    /// The type of one value at this key path.
    public enum ValueType: String, Sendable, Hashable {
        case number, string, boolean
    }

    public var name: String { rawValue }

    public var valueType: ValueType {
        switch self {
        case .peakBitRate, .averageBitRate, .score, .presentationWidth, .presentationHeight, .nominalFrameRate,
            .bitDepth, .audioChannelCount, .audioSampleRate:
            .number
        case .audioIsImmersive, .audioIsBinaural, .audioIsDownmix: .boolean
        case .uri, .codecs, .badges, .videoRange, .codecTypes, .videoLayout, .hdcpLevel, .formatIDs, .audioLanguage,
            .audioName, .subtitleLanguage, .subtitleName:
            .string
        }
    }

    /// True when the key path has several values (a list, or one value per rendition).
    public var isCollection: Bool {
        switch self {
        case .codecs, .badges, .codecTypes, .formatIDs, .subtitleLanguage, .subtitleName: true
        default: isPerAudioRendition
        }
    }

    var isLanguage: Bool { self == .audioLanguage || self == .subtitleLanguage }

    /// True for the key paths with one value per audio rendition, in rendition order.
    public var isPerAudioRendition: Bool { rawValue.hasPrefix("audioAttributes.renditions.") }

    /// The only values a string key path can take, when they are a closed set.
    public var allowedValues: [String]? {
        switch self {
        case .videoRange: ["SDR", "HLG", "PQ"]
        case .hdcpLevel: ["NONE", "TYPE-0", "TYPE-1"]
        case .badges: Badge.allCases.map(\.rawValue)
        default: nil
        }
    }

    /// The key path named `name`, or nil.
    public init?(name: String) { self.init(rawValue: name) }

    /// The values of this key path in `variant`: at most one for a single-valued key path
    /// (none when missing), one per element for a collection; a per-rendition value is nil
    /// when that rendition does not declare it.
    func values(in v: Variant) -> [PredicateScalar?] {
        let video = v.videoAttributes
        let renditions = v.audioAttributes?.renditions ?? []
        func one(_ x: PredicateScalar?) -> [PredicateScalar?] { x.map { [$0] } ?? [] }
        func number<T: BinaryInteger>(_ x: T?) -> PredicateScalar? { x.map { .number(Double($0)) } }
        func double(_ x: Double?) -> PredicateScalar? { x.map { .number($0) } }
        func string(_ x: String?) -> PredicateScalar? { x.map { .string($0) } }
        switch self {
        case .peakBitRate: return one(number(v.peakBitRate))
        case .averageBitRate: return one(number(v.averageBitRate))
        case .score: return one(double(v.score))
        case .uri: return [.string(v.uri)]
        case .codecs: return v.stream.attributes.codecs.map { .string($0) }
        case .badges: return v.badges.map { .string($0.rawValue) }
        case .presentationWidth: return one(number(video?.presentationSize?.width))
        case .presentationHeight: return one(number(video?.presentationSize?.height))
        case .videoRange: return one(string(video?.videoRange.rawValue))
        case .codecTypes: return (video?.codecTypes ?? []).map { .string($0) }
        case .nominalFrameRate: return one(double(video?.nominalFrameRate))
        case .bitDepth: return one(number(video?.bitDepth))
        case .videoLayout: return one(string(video?.videoLayout))
        case .hdcpLevel: return one(string(video?.hdcpLevel))
        case .formatIDs: return (v.audioAttributes?.formatIDs ?? []).map { .string($0) }
        case .audioChannelCount: return renditions.map { number($0.channelCount) }
        case .audioSampleRate: return renditions.map { number($0.sampleRate) }
        case .audioLanguage: return renditions.map { string($0.language) }
        case .audioName: return renditions.map { string($0.name) }
        case .audioIsImmersive: return renditions.map { .bool($0.isImmersive) }
        case .audioIsBinaural: return renditions.map { .bool($0.isBinaural) }
        case .audioIsDownmix: return renditions.map { .bool($0.isDownmix) }
        case .subtitleLanguage: return v.subtitleRenditions.map { string($0.language) }
        case .subtitleName: return v.subtitleRenditions.map { .string($0.name) }
        }
    }

    /// The single numeric value of a number key path (nil when missing or a collection).
    func number(in v: Variant) -> Double? {
        guard !isCollection, case .number(let n)? = values(in: v).first ?? nil else { return nil }
        return n
    }

    /// Resolves `name` or throws an error at `column` naming the closest key path.
    static func resolve(_ name: String, column: Int) throws(PredicateFormatError) -> VariantKeyPath {
        if let k = VariantKeyPath(name: name) { return k }
        let lower = name.lowercased()
        let suggestion =
            allCases.first { $0.rawValue.lowercased() == lower }
            ?? allCases.first { $0.rawValue.lowercased().hasSuffix("." + lower) }
            ?? allCases.first { $0.rawValue.lowercased().hasSuffix(lower) || lower.hasSuffix($0.rawValue.lowercased()) }
        let hint = suggestion.map { "did you mean \($0.rawValue)? " } ?? ""
        throw PredicateFormatError(
            .unknownKeyPath, column: column,
            "unknown key path '\(name)'; \(hint)expected one of \(allCases.map(\.rawValue).joined(separator: ", "))")
    }
}

/// One value the predicate language compares.
enum PredicateScalar: Sendable, Hashable, CustomStringConvertible {
    case number(Double), string(String), bool(Bool)

    var description: String {
        switch self {
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .bool(let b): b ? "TRUE" : "FALSE"
        }
    }
}
