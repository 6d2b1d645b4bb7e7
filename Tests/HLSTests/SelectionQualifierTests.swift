import Foundation
import Testing

@testable import HLS

/// Apple's qualifier semantics on corpus playlists: order, best-of-matches, explicit
/// variants, extremes, fallback, and per-rendition audio conditions.
@Suite("Selection: variant qualifiers")
struct SelectionQualifierTests {
    static let base = URL(string: "https://cdn.example.com/show/master.m3u8")!
    static let dolby = "apple-authoring-spec-hevc-dolby-vision-hdr10-multivariant.m3u8"

    func variants(_ name: String) throws -> [Variant] {
        let p = try #require(try Corpus.parse(name).playlist?.multivariant)
        return p.inspectedVariants(baseURL: Self.base)
    }

    func choose(_ name: String, _ qualifiers: [VariantQualifier]) throws -> VariantChoice {
        try #require(VariantSelection.choose(from: try variants(name), qualifiers: qualifiers))
    }

    func choose(_ name: String, formats: [String]) throws -> VariantChoice {
        var qualifiers: [VariantQualifier] = []
        for f in formats { qualifiers.append(try VariantQualifier(format: f)) }
        return try choose(name, qualifiers)
    }

    /// A ladder whose second variant's AUDIO group offers stereo, Atmos and binaural
    /// renditions (no corpus playlist mixes channel layouts inside one group).
    static let mixedAudio = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="aac/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="atmos",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="atmos/en-stereo.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="atmos",LANGUAGE="en",NAME="English Atmos",DEFAULT=NO,AUTOSELECT=YES,CHANNELS="16/JOC",URI="atmos/en-atmos.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="atmos",LANGUAGE="fr",NAME="Français Atmos",DEFAULT=NO,AUTOSELECT=YES,CHANNELS="16/JOC",URI="atmos/fr-atmos.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="atmos",LANGUAGE="en",NAME="English Binaural",DEFAULT=NO,AUTOSELECT=NO,CHANNELS="2/-/BINAURAL",URI="atmos/en-binaural.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=4000000,CODECS="hvc1.2.4.L123.B0,mp4a.40.2",RESOLUTION=1920x1080,AUDIO="aac"
        v-aac.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=5000000,CODECS="hvc1.2.4.L123.B0,ec-3",RESOLUTION=1920x1080,AUDIO="atmos"
        v-atmos.m3u8
        """

    static func mixedAudioVariants() throws -> [Variant] {
        let p = try #require(PlaylistParser.parse(mixedAudio).playlist?.multivariant)
        return p.inspectedVariants(baseURL: base)
    }

    @Test func documentedPredicatePicksHDR10At1080() throws {
        let c = try choose(Self.dolby, formats: [#"peakBitRate < 15000000 AND videoAttributes.videoRange == "PQ""#])
        #expect(c.variant.uri == "https://cdn.example.com/show/hdr10_1080/prog_index.m3u8")
        #expect(c.reason == .qualifier(0))
        #expect(c.candidates == [3, 4, 6, 7])
        #expect(c.matchingAudioRenditions == [])
    }

    @Test func firstMatchingQualifierWinsInOrder() throws {
        let c = try choose(
            Self.dolby,
            formats: [
                #"peakBitRate < 5000000 AND videoAttributes.videoRange == "PQ""#,  // matches nothing
                #"videoAttributes.codecTypes CONTAINS "dvh1" AND videoAttributes.presentationSize.height <= 1080"#,
                #"videoAttributes.videoRange == "SDR""#,  // would match too, but later
            ])
        #expect(c.reason == .qualifier(1))
        #expect(c.variant.stream.uri == "dolby_1080/prog_index.m3u8")
        #expect(c.candidates == [3, 4])
    }

    @Test func noQualifierTakesTheHighestBandwidth() throws {
        let c = try choose(Self.dolby, [])
        #expect(c.reason == .noQualifiers)
        #expect(c.variant.stream.uri == "dolby_2160/prog_index.m3u8")
        let none = try choose(Self.dolby, formats: ["peakBitRate < 1000"])
        #expect(none.reason == .noQualifierMatched)
        #expect(none.variant.stream.uri == "dolby_2160/prog_index.m3u8")
        #expect(VariantSelection.choose(from: [], qualifiers: []) == nil)
    }

    @Test func bestAmongMatchesIsHighestPeakThenLargerThenScore() throws {
        let c = try choose(Self.dolby, formats: ["averageBitRate < 4000000"])
        #expect(c.candidates == [0, 3, 6])
        #expect(c.variant.stream.uri == "dolby_720/prog_index.m3u8")  // 5327059 beats 5280654 and 3971374

        // Equal BANDWIDTH and RESOLUTION: playlist order decides.
        let tie = try choose("hlsjs-supplemental-codecs-dv-pq-hlg-av1-multivariant.m3u8", formats: ["peakBitRate == 3000000"])
        #expect(tie.candidates == [0, 2])
        #expect(tie.variant.stream.uri == "db1p.m3u8")

        // Ranking rule itself: bandwidth, then area, then score.
        var a = try #require(try variants("androidx-score-multivariant.m3u8").first)
        var b = a
        #expect(!VariantSelection.isPreferred(a, over: b) && !VariantSelection.isPreferred(b, over: a))
        b.videoAttributes?.presentationSize = Resolution(width: 1920, height: 1080)
        #expect(VariantSelection.isPreferred(b, over: a))
        a.score = 9
        #expect(VariantSelection.isPreferred(b, over: a))  // area outranks score
        b.videoAttributes?.presentationSize = a.videoAttributes?.presentationSize
        #expect(VariantSelection.isPreferred(a, over: b))  // same area: score decides
        a.peakBitRate = nil
        #expect(VariantSelection.isPreferred(b, over: a))  // missing bandwidth ranks lowest
    }

    @Test func explicitVariantIsTakenAsIs() throws {
        let all = try variants("apple-bipbop-advanced-fmp4-multivariant.m3u8")
        // v5 appears three times (AUDIO aud1, aud2, aud3); the explicit one is the ec-3 entry.
        let ec3v5 = try #require(all.first { $0.stream.uri == "v5/prog_index.m3u8" && $0.stream.audio == "aud3" })
        let c = try choose(
            "apple-bipbop-advanced-fmp4-multivariant.m3u8",
            [VariantQualifier(variant: ec3v5), try VariantQualifier(format: "peakBitRate > 0")])
        #expect(c.reason == .qualifier(0))
        #expect(c.index == 16)
        #expect(c.variant.stream.audio == "aud3")

        // By URI: the three v5 entries match; the best (ac-3, 2399619) wins.
        let byURI = try choose("apple-bipbop-advanced-fmp4-multivariant.m3u8", [.variant(uri: "v5/prog_index.m3u8")])
        #expect(byURI.candidates == [0, 8, 16])
        #expect(byURI.variant.stream.audio == "aud2")

        // A variant of another playlist matches nothing here: the next qualifier decides.
        let foreign = try #require(try variants(Self.dolby).first)
        let fallThrough = try choose(
            "apple-bipbop-advanced-fmp4-multivariant.m3u8",
            [VariantQualifier(variant: foreign), try VariantQualifier(format: "peakBitRate < 600000")])
        #expect(fallThrough.reason == .qualifier(1))
        #expect(fallThrough.variant.stream.uri == "v2/prog_index.m3u8" && fallThrough.variant.stream.audio == "aud3")
    }

    @Test func minimumAndMaximumValueQualifiers() throws {
        let min = try choose(Self.dolby, [try .minimumValue(forKeyPath: "peakBitRate")])
        #expect(min.variant.stream.uri == "sdr_720/prog_index.m3u8")
        let maxPQ = try choose(Self.dolby, [.maximumValue(of: .averageBitRate, among: try VariantPredicate(format: "videoAttributes.videoRange == 'PQ'"))])
        #expect(maxPQ.variant.stream.uri == "dolby_2160/prog_index.m3u8")
        let smallest = try choose(Self.dolby, [.minimumValue(of: .presentationHeight)])
        #expect(smallest.candidates == [0, 3, 6])
        #expect(smallest.variant.stream.uri == "dolby_720/prog_index.m3u8")

        // No variant declares AVERAGE-BANDWIDTH: the qualifier matches nothing.
        let missing = try choose(
            "apple-bipbop-16x9-multilingual-subtitles-multivariant.m3u8",
            [.maximumValue(of: .averageBitRate), .minimumValue(of: .peakBitRate)])
        #expect(missing.reason == .qualifier(1))
        #expect(missing.variant.stream.uri == "gear0/prog_index.m3u8")

        #expect(throws: PredicateFormatError.self) { try VariantQualifier.maximumValue(forKeyPath: "videoAttributes.codecTypes") }
        #expect(throws: PredicateFormatError.self) { try VariantQualifier.maximumValue(forKeyPath: "bandwidth") }
        #expect(throws: PredicateFormatError.self) { try VariantQualifier.minimumValue(forKeyPath: "uri") }
    }

    @Test func presentationSizeConstructors() throws {
        let c = try choose(
            Self.dolby,
            [
                VariantQualifier(
                    predicate: .presentationHeight(.lessThanOrEqual, 1080)
                        && .presentationWidth(.greaterThan, 1280) && !(try VariantPredicate(format: "videoAttributes.videoRange == 'SDR'")))
            ])
        #expect(c.variant.stream.uri == "hdr10_1080/prog_index.m3u8")
        let audioOnly = try variants("shaka-flac-audio-only-multivariant.m3u8")
        #expect(!audioOnly.contains(where: VariantPredicate.presentationWidth(.greaterThanOrEqual, 0).evaluate))
    }

    @Test func channelCountPerRenditionOnCorpusGroups() throws {
        let name = "apple-bipbop-advanced-fmp4-multivariant.m3u8"
        let stereo = try choose(name, [VariantQualifier(predicate: .channelCount(.lessThanOrEqual, 2, for: .language("en")))])
        #expect(stereo.variant.stream.uri == "v9/prog_index.m3u8" && stereo.variant.stream.audio == "aud1")
        #expect(stereo.candidates == Array(0..<8))
        #expect(stereo.matchingAudioRenditions.map(\.uri) == ["https://cdn.example.com/show/a1/prog_index.m3u8"])

        let surround = try choose(name, [VariantQualifier(predicate: .channelCount(.greaterThanOrEqual, 6))])
        #expect(surround.variant.stream.audio == "aud2" && surround.variant.peakBitRate == 8_223_601)
        #expect(surround.candidates == Array(8..<24))

        // No French rendition anywhere: the rule matches nothing and the next one decides.
        let french = try choose(
            name,
            [
                VariantQualifier(predicate: .channelCount(.equal, 2, for: .language("fr"))),
                try VariantQualifier(format: "peakBitRate < 600000"),
            ])
        #expect(french.reason == .qualifier(1))
    }

    @Test func stereoRuleKeepsAVariantThatAlsoOffersAtmos() throws {
        let v = try Self.mixedAudioVariants()
        // Written for the English stereo rendition: the Atmos renditions do not drop v-atmos.
        let rule = VariantPredicate.channelCount(.lessThanOrEqual, 6, for: .name("English"))
        #expect(v.map(rule.evaluate) == [true, true])
        let c = try #require(VariantSelection.choose(from: v, qualifiers: [VariantQualifier(predicate: rule)]))
        #expect(c.variant.stream.uri == "v-atmos.m3u8")
        #expect(c.matchingAudioRenditions.map(\.name) == ["English"])
        #expect(c.matchingAudioRenditions.first?.uri == "https://cdn.example.com/show/atmos/en-stereo.m3u8")

        // A variant-wide rule over every rendition does drop it.
        let all = try VariantPredicate(format: "ALL audioAttributes.renditions.channelCount <= 6")
        #expect(v.map(all.evaluate) == [true, false])

        // Immersive French: only the Atmos group has it.
        let immersive = VariantPredicate.immersiveAudio(for: .language("fra"))
        #expect(v.map(immersive.evaluate) == [false, true])
        #expect(immersive.matchingAudioRenditions(in: v[1])?.map(\.name) == ["Français Atmos"])
        #expect(immersive.matchingAudioRenditions(in: v[0]) == nil)

        // Binaural and not-downmix hold for the same English rendition.
        let binaural = VariantPredicate.audioRendition(.language("en"), where: [.binaural(true), .channelCount(.equal, 2), .downmix(false)])
        #expect(binaural.matchingAudioRenditions(in: v[1])?.map(\.name) == ["English Binaural"])
        #expect(!binaural.evaluate(v[0]))
        #expect(!VariantPredicate.audioRendition(.language("en"), where: [.binaural(true), .immersive(true)]).evaluate(v[1]))
        #expect(!VariantPredicate.downmixAudio().evaluate(v[1]))
        #expect(!VariantPredicate.audioSampleRate(.greaterThanOrEqual, 48000).evaluate(v[1]))  // no SAMPLE-RATE declared

        // ANY over renditions in a format string also reports which renditions matched.
        let any = try VariantPredicate(format: "ANY audioAttributes.renditions.channelCount >= 16")
        #expect(any.matchingAudioRenditions(in: v[1])?.map(\.name) == ["English Atmos", "Français Atmos"])
        // AND of rendition rules reports the union; NOT reports none.
        let both = rule && immersive
        #expect(both.matchingAudioRenditions(in: v[1])?.map(\.name) == ["English", "Français Atmos"])
        #expect((!VariantPredicate.binauralAudio(for: .language("fr"))).matchingAudioRenditions(in: v[1]) == [])
    }
}

/// Per-rendition conditions written as format strings with SUBQUERY.
@Suite("Selection: SUBQUERY over audio renditions")
struct SelectionSubqueryTests {
    func error(_ format: String) -> PredicateFormatError? {
        do {
            _ = try VariantPredicate(format: format)
            return nil
        } catch {
            return error
        }
    }

    @Test func subqueryMatchesLikeTheConstructor() throws {
        let v = try SelectionQualifierTests.mixedAudioVariants()
        let format = try VariantPredicate(
            format:
                #"SUBQUERY(audioAttributes.renditions, $r, $r.language == "eng" AND $r.channelCount <= 6).@count > 0"#)
        #expect(v.map(format.evaluate) == [true, true])
        #expect(format.matchingAudioRenditions(in: v[1])?.map(\.name) == ["English", "English Binaural"])
        let c = try #require(VariantSelection.choose(from: v, qualifiers: [VariantQualifier(predicate: format)]))
        #expect(c.variant.stream.uri == "v-atmos.m3u8")

        let noImmersive = try VariantPredicate(format: "SUBQUERY(audioAttributes.renditions, $a, $a.isImmersive).@count == 0")
        #expect(v.map(noImmersive.evaluate) == [true, false])
        let twoAtmos = try VariantPredicate(
            format:
                "subquery(audioAttributes.renditions, $r, $r.channelCount >= 16 && NOT $r.isDefault).@COUNT >= 2 AND peakBitRate > 4500000")
        #expect(v.map(twoAtmos.evaluate) == [false, true])
        let names = try VariantPredicate(
            format:
                #"SUBQUERY(audioAttributes.renditions, $r, $r.name BEGINSWITH[cd] "francais" OR $r.language IN {"de", "en-GB"}).@count == 4"#)
        #expect(v.map(names.evaluate) == [false, true])
    }

    @Test func constructorsPrintAsParseableSubqueries() throws {
        let mixed = try SelectionQualifierTests.mixedAudioVariants()
        let bipbop = try #require(try Corpus.parse("apple-bipbop-advanced-fmp4-multivariant.m3u8").playlist?.multivariant)
            .inspectedVariants()
        let predicates: [VariantPredicate] = [
            .channelCount(.lessThanOrEqual, 6, for: .name("English")),
            .immersiveAudio(for: .language("fr")),
            .audioRendition(.init(language: "en", groupID: "atmos"), where: [.binaural(true), .downmix(false)]),
            .channelCount(.greaterThanOrEqual, 6) || .presentationWidth(.lessThan, 600),
            !.audioSampleRate(.equal, 48000, for: .init(characteristics: ["public.accessibility.describes-video"])),
        ]
        #expect(
            predicates[0].description
                == #"SUBQUERY(audioAttributes.renditions, $r, $r.name ==[c] "English" AND $r.channelCount <= 6).@count > 0"#)
        for p in predicates {
            let parsed = try VariantPredicate(format: p.description)
            for variant in mixed + bipbop {
                #expect(parsed.matchingAudioRenditions(in: variant) == p.matchingAudioRenditions(in: variant), "\(p)")
            }
        }
    }

    @Test func subqueryErrorsHaveColumns() throws {
        let collection = try #require(error(#"SUBQUERY(codecs, $c, $c == "x").@count > 0"#))
        #expect(collection.kind == .unknownKeyPath && collection.column == 10)
        let variable = try #require(error("SUBQUERY(audioAttributes.renditions, $r, $x.channelCount > 2).@count > 0"))
        #expect(variable.kind == .unknownKeyPath && variable.column == 42 && variable.message.contains("start with $r"))
        let outer = try #require(error("SUBQUERY(audioAttributes.renditions, $r, peakBitRate > 2).@count > 0"))
        #expect(outer.kind == .unknownKeyPath && outer.column == 42)
        let outside = try #require(error("$r.channelCount > 2"))
        #expect(outside.kind == .unknownKeyPath && outside.column == 1 && outside.message.contains("only defined inside SUBQUERY"))
        let key = try #require(error("SUBQUERY(audioAttributes.renditions, $r, $r.channelcount > 2).@count > 0"))
        #expect(key.kind == .unknownKeyPath && key.column == 42 && key.message.contains("did you mean $r.channelCount?"))
        let type = try #require(error(#"SUBQUERY(audioAttributes.renditions, $r, $r.channelCount == "6").@count > 0"#))
        #expect(type.kind == .typeMismatch && type.column == 61)
        let count = try #require(error("SUBQUERY(audioAttributes.renditions, $r, $r.isBinaural).count > 0"))
        #expect(count.kind == .unexpectedToken && count.column == 57 && count.message.contains("@count"))
        let fraction = try #require(error("SUBQUERY(audioAttributes.renditions, $r, $r.isBinaural).@count > 0.5"))
        #expect(fraction.kind == .typeMismatch && fraction.column == 66)
        let unclosed = try #require(error("SUBQUERY(audioAttributes.renditions, $r, $r.isBinaural"))
        #expect(unclosed.kind == .unexpectedEnd && unclosed.column == 55)
    }
}
