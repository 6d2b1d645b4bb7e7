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

        let low = try resolve(name, ContentConfiguration(
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
        #expect(r.audioRenditions.first?.uri == nil)   // muxed into the variant stream
        #expect(r.subtitleRenditions.map(\.name) == ["English"])

        // No DEFAULT subtitles: none; audio is the DEFAULT=YES English, not the commentary.
        let w = try resolve("wowza-ttml-subtitles-cc-multi-audio-multivariant.m3u8", ContentConfiguration())
        #expect(w.variant.peakBitRate == 2962000)
        #expect(w.audioRenditions.map(\.name) == ["English"])
        #expect(w.subtitleRenditions.isEmpty)
    }

    @Test func subtitlesByLanguageNameAndCharacteristics() throws {
        let name = "apple-bipbop-16x9-multilingual-subtitles-multivariant.m3u8"
        let r = try resolve(name, ContentConfiguration(mediaSelections: [
            .subtitles(language: "fr"),
            .subtitles(MediaSelectionOption(language: "en", forced: true)),
            .subtitles(MediaSelectionOption(language: "jpn", characteristics: ["public.accessibility.describes-music-and-sound"])),
            .subtitles(language: "de"),
            .audio(.name("BipBop Audio 2")),
        ]))
        #expect(r.subtitleRenditions.map(\.name) == ["Français", "English (Forced)", "日本語"])
        #expect(r.subtitleRenditions.map(\.uri) == [
            "https://cdn.example.com/show/subtitles/fra/prog_index.m3u8",
            "https://cdn.example.com/show/subtitles/eng_forced/prog_index.m3u8",
            "https://cdn.example.com/show/subtitles/jpn/prog_index.m3u8",
        ])
        #expect(r.unsatisfiedSelections == [.subtitles(language: "de")])
        #expect(r.audioRenditions.map(\.uri) == ["https://cdn.example.com/show/alternate_audio_aac/prog_index.m3u8"])

        let w = try resolve("wowza-ttml-subtitles-cc-multi-audio-multivariant.m3u8", ContentConfiguration(
            variantQualifiers: [.minimumValue(of: .peakBitRate)],
            mediaSelections: [.audio(.name("commentary (ENG)")), .audio(language: "en"), .subtitles(.init(characteristics: ["public.accessibility.transcribes-spoken-dialog"]))]))
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
            mediaSelections: [.audio(language: "en"), .audio(language: "fr")]).resolve(p, baseURL: Self.base)
        #expect(stereo.variant.stream.uri == "v-atmos.m3u8")
        #expect(stereo.choice.matchingAudioRenditions.map(\.name) == ["English", "English Binaural"])
        #expect(stereo.audioRenditions.map(\.name) == ["English", "Français Atmos"])

        // Binaural rule: the binaural rendition wins over the DEFAULT English.
        let binaural = try ContentConfiguration(
            variantQualifiers: [VariantQualifier(predicate: .binauralAudio(for: .language("en")))],
            mediaSelections: [.audio(language: "en")]).resolve(p, baseURL: Self.base)
        #expect(binaural.audioRenditions.map(\.name) == ["English Binaural"])
    }

    @Test func playlistWithoutVariantsIsAnError() throws {
        #expect(throws: SelectionError.noVariants) {
            try ContentConfiguration().resolve(MultivariantPlaylist())
        }
    }
}
