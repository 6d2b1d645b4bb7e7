import Foundation
import Testing

@testable import HLS

/// `ContentConfiguration.resolve` on corpus playlists: variant and renditions together.
@Suite("Selection: content configurations")
struct SelectionContentConfigurationTests {
    static let base = URL(string: "https://cdn.example.com/show/master.m3u8")!

    func resolve(_ name: String, _ configuration: ContentConfiguration) throws -> ResolvedContent {
        let p = try #require(try Corpus.parse(name).playlist?.multivariant)
        return try configuration.resolve(p, baseURL: Self.base)
    }

    @Test func audioByLanguageFollowsTheChosenVariantsGroup() throws {
        let name = "multiple-audio-groups-spaces-after-commas-multivariant.m3u8"
        let french = try resolve(name, ContentConfiguration(mediaSelections: [.audio(language: "fr")]))
        #expect(french.variant.stream.uri == "hi2/prog_index.m3u8")
        #expect(french.audioRenditions.map(\.uri) == ["https://cdn.example.com/show/fre/prog_index.m3u8"])

        let low = try resolve(
            name,
            ContentConfiguration(
                variantQualifiers: [try VariantQualifier(format: "peakBitRate < 300000")],
                mediaSelections: [.audio(language: "en"), .audio(language: "fra"), .audio(language: "en")]))
        #expect(low.variant.stream.uri == "lo2/prog_index.m3u8")
        #expect(low.audioRenditions.map(\.name) == ["English", "Français"])
        #expect(low.audioRenditions.map(\.groupID) == ["audio-lo", "audio-lo"])
        #expect(low.unsatisfiedSelections == [])
    }

    @Test func emptySelectionsTakeThePlaylistDefaults() throws {
        let r = try resolve("apple-bipbop-16x9-multilingual-subtitles-multivariant.m3u8", ContentConfiguration())
        #expect(r.variant.stream.uri == "gear5/prog_index.m3u8")
        #expect(r.choice.reason == .noQualifiers)
        #expect(r.audioRenditions.map(\.name) == ["BipBop Audio 1"])
        #expect(r.audioRenditions.first?.uri == nil)  // muxed into the variant stream
        #expect(r.subtitleRenditions.map(\.name) == ["English"])

        // No DEFAULT subtitles: none; audio is the DEFAULT=YES English, not the commentary.
        let w = try resolve("wowza-ttml-subtitles-cc-multi-audio-multivariant.m3u8", ContentConfiguration())
        #expect(w.variant.peakBitRate == 2_962_000)
        #expect(w.audioRenditions.map(\.name) == ["English"])
        #expect(w.subtitleRenditions.isEmpty)
    }

    @Test func subtitlesByLanguageNameAndCharacteristics() throws {
        let name = "apple-bipbop-16x9-multilingual-subtitles-multivariant.m3u8"
        let r = try resolve(
            name,
            ContentConfiguration(mediaSelections: [
                .subtitles(language: "fr"),
                .subtitles(MediaSelectionOption(language: "en", forced: true)),
                .subtitles(MediaSelectionOption(language: "jpn", characteristics: ["public.accessibility.describes-music-and-sound"])),
                .subtitles(language: "de"),
                .audio(.name("BipBop Audio 2")),
            ]))
        #expect(r.subtitleRenditions.map(\.name) == ["Français", "English (Forced)", "日本語"])
        #expect(
            r.subtitleRenditions.map(\.uri) == [
                "https://cdn.example.com/show/subtitles/fra/prog_index.m3u8",
                "https://cdn.example.com/show/subtitles/eng_forced/prog_index.m3u8",
                "https://cdn.example.com/show/subtitles/jpn/prog_index.m3u8",
            ])
        #expect(r.unsatisfiedSelections == [.subtitles(language: "de")])
        #expect(r.audioRenditions.map(\.uri) == ["https://cdn.example.com/show/alternate_audio_aac/prog_index.m3u8"])

        let w = try resolve(
            "wowza-ttml-subtitles-cc-multi-audio-multivariant.m3u8",
            ContentConfiguration(
                variantQualifiers: [.minimumValue(of: .peakBitRate)],
                mediaSelections: [
                    .audio(.name("commentary (ENG)")), .audio(language: "en"),
                    .subtitles(.init(characteristics: ["public.accessibility.transcribes-spoken-dialog"])),
                ]))
        #expect(w.variant.peakBitRate == 688000)
        #expect(w.audioRenditions.map(\.name) == ["Commentary (eng)", "English"])
        #expect(w.subtitleRenditions.map(\.language) == ["fra"])
    }

    @Test func perRenditionQualifierChoosesTheAudio() throws {
        let p = try #require(PlaylistParser.parse(SelectionQualifierTests.mixedAudio).playlist?.multivariant)
        // With no audio selection, the rendition that satisfied the rule is taken over the DEFAULT one.
        let atmos = try ContentConfiguration(variantQualifiers: [VariantQualifier(predicate: .immersiveAudio(for: .language("fr")))])
            .resolve(p, baseURL: Self.base)
        #expect(atmos.variant.stream.uri == "v-atmos.m3u8")
        #expect(atmos.audioRenditions.map(\.name) == ["Français Atmos"])

        // English selected; the stereo rule matches the stereo and binaural renditions: DEFAULT breaks the tie.
        let stereo = try ContentConfiguration(
            variantQualifiers: [VariantQualifier(predicate: .channelCount(.lessThanOrEqual, 2, for: .language("en")))],
            mediaSelections: [.audio(language: "en"), .audio(language: "fr")]
        ).resolve(p, baseURL: Self.base)
        #expect(stereo.variant.stream.uri == "v-atmos.m3u8")
        #expect(stereo.choice.matchingAudioRenditions.map(\.name) == ["English", "English Binaural"])
        #expect(stereo.audioRenditions.map(\.name) == ["English", "Français Atmos"])

        // Binaural rule: the binaural rendition wins over the DEFAULT English.
        let binaural = try ContentConfiguration(
            variantQualifiers: [VariantQualifier(predicate: .binauralAudio(for: .language("en")))],
            mediaSelections: [.audio(language: "en")]
        ).resolve(p, baseURL: Self.base)
        #expect(binaural.audioRenditions.map(\.name) == ["English Binaural"])
    }

    @Test func auxiliaryResolvedAmongVariantsSharingThePrimaryVideo() throws {
        let name = "apple-bipbop-advanced-fmp4-multivariant.m3u8"
        let p = try #require(try Corpus.parse(name).playlist?.multivariant)
        let primary = try ContentConfiguration(variantQualifiers: [VariantQualifier(format: "peakBitRate < 2200000")])
            .resolve(p, baseURL: Self.base)
        #expect(primary.variant.stream.uri == "v5/prog_index.m3u8" && primary.variant.stream.audio == "aud1")
        #expect(primary.audioRenditions.map(\.uri) == ["https://cdn.example.com/show/a1/prog_index.m3u8"])

        // 5.1 audio exists beside the same video (v5 with aud2 and aud3): only its audio is new.
        let surround = ContentConfiguration(variantQualifiers: [VariantQualifier(predicate: .channelCount(.equal, 6))])
        let shared = try #require(surround.resolve(p, baseURL: Self.base, sharingVideoWith: primary.variant))
        #expect(shared.variant.stream.uri == primary.variant.stream.uri)
        #expect(shared.choice.index == 8 && shared.choice.candidates == [8, 16])
        #expect(shared.variant.stream.audio == "aud2")
        #expect(shared.audioRenditions.map(\.uri) == ["https://cdn.example.com/show/a2/prog_index.m3u8"])
        // Evaluated on its own, the same configuration brings its own (1080p) video.
        #expect(try surround.resolve(p, baseURL: Self.base).variant.stream.uri == "v9/prog_index.m3u8")

        // Nothing beside v5 is 1080p, and no rendition is in German: not satisfiable that way.
        let tall = ContentConfiguration(variantQualifiers: [VariantQualifier(predicate: .presentationHeight(.equal, 1080))])
        #expect(tall.resolve(p, baseURL: Self.base, sharingVideoWith: primary.variant) == nil)
        let german = ContentConfiguration(mediaSelections: [.audio(language: "de")])
        #expect(german.resolve(p, baseURL: Self.base, sharingVideoWith: primary.variant) == nil)
    }

    @Test func configurationsRoundTripThroughJSON() throws {
        let name = "apple-bipbop-advanced-fmp4-multivariant.m3u8"
        let p = try #require(try Corpus.parse(name).playlist?.multivariant)
        let variants = p.inspectedVariants(baseURL: Self.base)
        let configuration = ContentConfiguration(
            variantQualifiers: [
                try VariantQualifier(format: #"peakBitRate < 5000000 AND videoAttributes.videoRange == "PQ""#),
                VariantQualifier(predicate: .channelCount(.lessThanOrEqual, 6, for: .language("en")) && .presentationWidth(.greaterThan, 900)),
                VariantQualifier(variant: variants[17]),
                .variant(uri: "v2/prog_index.m3u8"),
                .minimumValue(of: .peakBitRate, among: .immersiveAudio()),
                .maximumValue(of: .averageBitRate),
            ],
            mediaSelections: [.audio(language: "en"), .subtitles(MediaSelectionOption(language: "fr", forced: false))])
        let json = try JSONEncoder().encode(configuration)
        let decoded = try JSONDecoder().decode(ContentConfiguration.self, from: json)
        #expect(decoded.mediaSelections == configuration.mediaSelections)
        #expect(decoded.variantQualifiers.count == 6)
        #expect(decoded.description == configuration.description)
        #expect(configuration.description.hasPrefix(#"1. peakBitRate < 5000000 AND videoAttributes.videoRange == "PQ""#))
        // Every decoded qualifier chooses what the original chooses, the explicit variant included.
        for (a, b) in zip(configuration.variantQualifiers, decoded.variantQualifiers) {
            #expect(VariantSelection.choose(from: variants, qualifiers: [a]) == VariantSelection.choose(from: variants, qualifiers: [b]), "\(a)")
        }
        #expect(VariantSelection.choose(from: variants, qualifiers: [decoded.variantQualifiers[2]])?.index == 17)

        // The explicit variant still matches after the playlist is parsed again.
        let again = try #require(try Corpus.parse(name).playlist?.multivariant).inspectedVariants()
        #expect(VariantSelection.choose(from: again, qualifiers: [decoded.variantQualifiers[2]])?.index == 17)

        let bad = Data(#"{"variantQualifiers":[{"predicate":"peakBitRate == \"PQ\""}],"mediaSelections":[]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ContentConfiguration.self, from: bad) }
    }

    @Test func playlistWithoutVariantsIsAnError() throws {
        #expect(throws: SelectionError.noVariants) {
            try ContentConfiguration().resolve(MultivariantPlaylist())
        }
    }
}
