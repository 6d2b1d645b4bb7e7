public import Foundation

/// What to take from a multivariant playlist, modelled on `AVAssetVariantQualifier` lists and
/// media selections of `AVAssetDownloadContentConfiguration`: variant qualifiers in order of
/// preference, and the audio and subtitle renditions wanted. `resolve` turns it into the
/// concrete variant and renditions; a download configuration holds one primary and any
/// number of auxiliary content configurations.
public struct ContentConfiguration: Sendable, Hashable, Codable, CustomStringConvertible {
    public var variantQualifiers: [VariantQualifier]
    /// Audio and subtitle renditions by language, name or characteristics. With no audio
    /// selection, the variant's default audio rendition; with no subtitle selection, the
    /// DEFAULT=YES subtitle rendition if there is one.
    public var mediaSelections: [MediaSelection]

    public init(variantQualifiers: [VariantQualifier] = [], mediaSelections: [MediaSelection] = []) {
        self.variantQualifiers = variantQualifiers
        self.mediaSelections = mediaSelections
    }

    /// One line per qualifier in order, then the media selections, for reports.
    public var description: String {
        let qualifiers = variantQualifiers.isEmpty ? ["highest bandwidth"] : variantQualifiers.map(\.description)
        let selections = mediaSelections.isEmpty ? "playlist defaults" : mediaSelections.map(\.description).joined(separator: ", ")
        return qualifiers.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n") + "\nmedia: " + selections
    }

    /// Chooses the variant (see `VariantSelection.choose`) and its renditions.
    ///
    /// Audio renditions come from the chosen variant's AUDIO group. For each audio selection
    /// one rendition is taken among those matching it, preferring one that satisfied the
    /// winning qualifier's per-rendition conditions, then DEFAULT=YES, then AUTOSELECT=YES,
    /// then playlist order. With no audio selection, the same preference applies over the
    /// whole group. Subtitles likewise from the SUBTITLES group, preferring non-forced
    /// renditions unless the option asks for forced ones. A rendition without URI is carried
    /// in the variant stream itself. Selections that match nothing are reported in
    /// `unsatisfiedSelections`, not thrown; so are closed-caption and video selections (closed
    /// captions travel inside the video, alternative video renditions are not chosen here).
    public func resolve(_ playlist: MultivariantPlaylist, baseURL: URL? = nil) throws(SelectionError) -> ResolvedContent {
        try resolve(variants: playlist.inspectedVariants(baseURL: baseURL), in: playlist)
    }

    /// `resolve` over variants already inspected from `playlist`.
    public func resolve(variants: [Variant], in playlist: MultivariantPlaylist) throws(SelectionError) -> ResolvedContent {
        guard let choice = VariantSelection.choose(from: variants, qualifiers: variantQualifiers) else {
            throw .noVariants
        }
        let v = choice.variant
        func autoselect(_ type: MediaType, _ group: String?, _ name: String?) -> Bool {
            guard let group, let name else { return false }
            return playlist.renditions(ofType: type, group: group).first { $0.name == name }?.autoselect ?? false
        }

        var unsatisfied: [MediaSelection] = []
        let audio = v.audioAttributes?.renditions ?? []
        let preferredAudio = Set(choice.matchingAudioRenditions)
        func bestAudio(_ candidates: [Variant.AudioRendition]) -> Variant.AudioRendition? {
            candidates.max { a, b in
                func rank(_ r: Variant.AudioRendition) -> [Bool] {
                    [preferredAudio.contains(r), r.isDefault, autoselect(.audio, r.groupID, r.name)]
                }
                // max(by:) keeps the first of equal elements: playlist order breaks ties.
                return Self.lexicographicallyLess(rank(a), rank(b))
            }
        }
        var chosenAudio: [Variant.AudioRendition] = []
        let audioSelections = mediaSelections.filter { $0.mediaType == .audio }
        if audioSelections.isEmpty {
            if let r = bestAudio(audio) { chosenAudio.append(r) }
        } else {
            for s in audioSelections {
                guard let r = bestAudio(audio.filter(s.option.matches)) else {
                    unsatisfied.append(s)
                    continue
                }
                if !chosenAudio.contains(r) { chosenAudio.append(r) }
            }
        }

        let subtitles = v.subtitleRenditions
        func bestSubtitle(_ candidates: [Variant.TextRendition], forced: Bool?) -> Variant.TextRendition? {
            candidates.max { a, b in
                func rank(_ r: Variant.TextRendition) -> [Bool] {
                    [r.forced == (forced ?? false), r.isDefault, autoselect(.subtitles, r.groupID, r.name)]
                }
                return Self.lexicographicallyLess(rank(a), rank(b))
            }
        }
        var chosenSubtitles: [Variant.TextRendition] = []
        let subtitleSelections = mediaSelections.filter { $0.mediaType == .subtitles }
        if subtitleSelections.isEmpty {
            if let r = bestSubtitle(subtitles.filter(\.isDefault), forced: nil) { chosenSubtitles.append(r) }
        } else {
            for s in subtitleSelections {
                guard let r = bestSubtitle(subtitles.filter(s.option.matches), forced: s.option.forced) else {
                    unsatisfied.append(s)
                    continue
                }
                if !chosenSubtitles.contains(r) { chosenSubtitles.append(r) }
            }
        }
        unsatisfied += mediaSelections.filter { $0.mediaType != .audio && $0.mediaType != .subtitles }
        return ResolvedContent(
            choice: choice, audioRenditions: chosenAudio, subtitleRenditions: chosenSubtitles,
            unsatisfiedSelections: unsatisfied)
    }

    /// Resolves this configuration among the variants that share `primary`'s video — the
    /// same variant URI, so the same video segments — which is the check behind
    /// `optimizesAuxiliaryContentConfigurations`: when it succeeds, only the audio and
    /// subtitle renditions the result adds to the primary's need downloading. Nil when no
    /// such variant satisfies a qualifier (given qualifiers) or a media selection is left
    /// unsatisfied. Indices in the result refer to the playlist's full variant list.
    public func resolve(_ playlist: MultivariantPlaylist, baseURL: URL? = nil, sharingVideoWith primary: Variant) -> ResolvedContent? {
        let all = playlist.inspectedVariants(baseURL: baseURL)
        let indices = all.indices.filter { all[$0].stream.uri == primary.stream.uri }
        guard var resolved = try? resolve(variants: indices.map { all[$0] }, in: playlist),
            resolved.choice.reason != .noQualifierMatched, resolved.unsatisfiedSelections.isEmpty
        else { return nil }
        resolved.choice.index = indices[resolved.choice.index]
        resolved.choice.candidates = resolved.choice.candidates.map { indices[$0] }
        return resolved
    }

    /// `a < b` comparing flags in order, false before true.
    static func lexicographicallyLess(_ a: [Bool], _ b: [Bool]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return !x && y }
        return false
    }
}

/// What a `ContentConfiguration` resolved to on one playlist.
public struct ResolvedContent: Sendable, Hashable {
    public var choice: VariantChoice
    /// The chosen audio renditions, in the order of the media selections.
    public var audioRenditions: [Variant.AudioRendition]
    /// The chosen subtitle renditions, in the order of the media selections.
    public var subtitleRenditions: [Variant.TextRendition]
    /// Media selections that no rendition of the chosen variant satisfied.
    public var unsatisfiedSelections: [MediaSelection]

    public var variant: Variant { choice.variant }
}

/// Why a content configuration could not be resolved.
public enum SelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    case noVariants

    public var description: String {
        switch self {
        case .noVariants: "the multivariant playlist has no variant streams to choose from"
        }
    }
}
