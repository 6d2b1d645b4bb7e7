/// The variant chosen for a set of qualifiers, why it was chosen, and the audio renditions
/// that satisfied per-rendition conditions of the winning qualifier.
public struct VariantChoice: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The qualifier at this index (of the list given) was the first to match.
        case qualifier(Int)
        /// No qualifiers were given: the best variant overall.
        case noQualifiers
        /// Qualifiers were given but none matched: the best variant overall. A caller that
        /// must honour the user's preferences treats this as a failure.
        case noQualifierMatched
    }

    public var variant: Variant
    /// Index of the variant in the list chosen from.
    public var index: Int
    public var reason: Reason
    /// Indices of every variant the winning qualifier matched (all variants on a fallback).
    public var candidates: [Int]
    /// Audio renditions of `variant` that satisfied per-rendition conditions, in rendition
    /// order; empty when the qualifier had none.
    public var matchingAudioRenditions: [Variant.AudioRendition]
}

/// Apple's variant-qualifier semantics, as a pure function.
public enum VariantSelection {
    /// Chooses a variant from `variants` (in playlist order):
    ///
    /// 1. Qualifiers are tried in order; the first that matches at least one variant wins.
    /// 2. An explicit-variant qualifier's variant is taken as is.
    /// 3. Among several matches the best is chosen by `isPreferred(_:over:)`: highest
    ///    `peakBitRate`, then largest presentation area (width × height), then highest
    ///    `score`, then highest `averageBitRate`, then the earliest in the playlist.
    /// 4. With no qualifier, or when none matches, the best variant of all (that is, the
    ///    highest-bandwidth one), with the reason saying which case it was.
    ///
    /// Returns nil only when `variants` is empty.
    public static func choose(from variants: [Variant], qualifiers: [VariantQualifier]) -> VariantChoice? {
        guard !variants.isEmpty else { return nil }
        for (q, qualifier) in qualifiers.enumerated() {
            let matches = qualifier.matches(variants)
            guard !matches.isEmpty else { continue }
            var best = matches[0]
            if case .variant = qualifier.kind {
            } else {
                for m in matches.dropFirst() where isPreferred(variants[m.index], over: variants[best.index]) { best = m }
            }
            let renditions = variants[best.index].audioAttributes?.renditions ?? []
            return VariantChoice(
                variant: variants[best.index], index: best.index, reason: .qualifier(q),
                candidates: matches.map(\.index),
                matchingAudioRenditions: best.renditions.sorted().map { renditions[$0] })
        }
        var best = 0
        for i in variants.indices.dropFirst() where isPreferred(variants[i], over: variants[best]) { best = i }
        return VariantChoice(
            variant: variants[best], index: best, reason: qualifiers.isEmpty ? .noQualifiers : .noQualifierMatched,
            candidates: Array(variants.indices), matchingAudioRenditions: [])
    }

    /// The ranking among matching variants: true when `a` is strictly better than `b` (see
    /// `choose`). Missing values rank lowest.
    public static func isPreferred(_ a: Variant, over b: Variant) -> Bool {
        func area(_ v: Variant) -> Int { v.videoAttributes?.presentationSize.map { $0.width * $0.height } ?? -1 }
        let keys: [(Double, Double)] = [
            (Double(a.peakBitRate ?? -1), Double(b.peakBitRate ?? -1)),
            (Double(area(a)), Double(area(b))),
            (a.score ?? -.infinity, b.score ?? -.infinity),
            (Double(a.averageBitRate ?? -1), Double(b.averageBitRate ?? -1)),
        ]
        for (x, y) in keys where x != y { return x > y }
        return false
    }
}
