import Foundation
import Testing

@testable import HLS

/// The predicate language on corpus playlists: what each documented predicate matches,
/// missing values, and errors with columns.
@Suite("Selection: variant predicate language")
struct SelectionPredicateTests {
    static let base = URL(string: "https://cdn.example.com/show/master.m3u8")!

    func variants(_ name: String) throws -> [Variant] {
        let p = try #require(try Corpus.parse(name).playlist?.multivariant)
        return p.inspectedVariants(baseURL: Self.base)
    }

    /// The directory names of the variants `format` matches on the Dolby Vision / HDR10 ladder.
    func dolbyMatches(_ format: String) throws -> [String] {
        let predicate = try VariantPredicate(format: format)
        return try variants("apple-authoring-spec-hevc-dolby-vision-hdr10-multivariant.m3u8")
            .filter(predicate.evaluate)
            .map { URL(string: $0.uri)!.deletingLastPathComponent().lastPathComponent }
    }

    func error(_ format: String) -> PredicateFormatError? {
        do {
            _ = try VariantPredicate(format: format)
            return nil
        } catch {
            return error
        }
    }

    @Test func bitRateAndVideoRange() throws {
        #expect(
            try dolbyMatches(#"peakBitRate < 15000000 AND videoAttributes.videoRange == "PQ""#)
                == ["dolby_720", "dolby_1080", "hdr10_720", "hdr10_1080"])
        #expect(try dolbyMatches(#"peakBitRate < 5000000 AND videoAttributes.videoRange == "PQ""#) == [])
        #expect(try dolbyMatches(#"peakBitRate < 5000000"#) == ["sdr_720"])
        #expect(try dolbyMatches(#"averageBitRate <= 3385450"#) == ["sdr_720", "dolby_720", "hdr10_720"])
    }

    @Test func inContainsBeginsWithAndSizes() throws {
        #expect(
            try dolbyMatches(#"videoAttributes.videoRange IN {"PQ", "HLG"} && videoAttributes.presentationSize.width < 1920"#)
                == ["dolby_720", "hdr10_720"])
        #expect(
            try dolbyMatches(#"videoAttributes.codecTypes CONTAINS 'dvh1' AND videoAttributes.presentationSize.height >= 1080"#)
                == ["dolby_1080", "dolby_2160"])
        #expect(
            try dolbyMatches(#"ANY videoAttributes.codecTypes BEGINSWITH "hvc" AND videoAttributes.videoRange != "SDR""#)
                == ["hdr10_720", "hdr10_1080", "hdr10_2160"])
        #expect(try dolbyMatches(#"uri CONTAINS[c] "DOLBY_2160""#) == ["dolby_2160"])
        #expect(try dolbyMatches(#"uri LIKE "*/sdr_??80/*""#) == ["sdr_1080"])
        #expect(
            try dolbyMatches(#"videoAttributes.hdcpLevel == "TYPE-1" AND NOT badges CONTAINS "Dolby Vision""#)
                == ["sdr_2160", "hdr10_2160"])
        #expect(try dolbyMatches(#"peakBitRate BETWEEN {5000000, 6000000}"#) == ["dolby_720", "hdr10_720"])
        #expect(try dolbyMatches(#"videoAttributes.nominalFrameRate > 24"#) == [])
        #expect(try dolbyMatches(#"videoAttributes.nominalFrameRate < 24 and videoAttributes.bitDepth == 10"#).count == 9)
    }

    @Test func precedenceParenthesesAndSymbols() throws {
        // AND binds tighter than OR.
        #expect(
            try dolbyMatches(#"peakBitRate < 4000000 OR peakBitRate > 29000000 AND videoAttributes.videoRange == "PQ""#)
                == ["sdr_720", "dolby_2160", "hdr10_2160"])
        #expect(
            try dolbyMatches(#"(peakBitRate < 4000000 || peakBitRate > 29000000) && videoAttributes.videoRange == 'PQ'"#)
                == ["dolby_2160", "hdr10_2160"])
        #expect(
            try dolbyMatches(#"!(videoAttributes.videoRange == "PQ") and not peakBitRate > 20000000"#)
                == ["sdr_720", "sdr_1080"])
        // A literal on the left is turned around.
        #expect(
            try dolbyMatches(#"13000000 > peakBitRate AND "dvh1" IN videoAttributes.codecTypes"#)
                == ["dolby_720", "dolby_1080"])
        // Enumerated values are case-insensitive and canonicalised.
        #expect(try dolbyMatches(#"videoAttributes.videoRange == "pq" AND peakBitRate < 5300000"#) == ["hdr10_720"])
        #expect(try dolbyMatches("TRUEPREDICATE").count == 9)
        #expect(try dolbyMatches("FALSEPREDICATE OR FALSEPREDICATE") == [])
    }

    @Test func formatIDsScoreAndCodecs() throws {
        let dv = try variants("hlsjs-supplemental-codecs-dv-pq-hlg-av1-multivariant.m3u8")
        let atmosHLG = try VariantPredicate(format: #"audioAttributes.formatIDs CONTAINS "ec-3" AND videoAttributes.videoRange == "HLG""#)
        #expect(dv.filter(atmosHLG.evaluate).map(\.stream.uri) == ["db4h.m3u8", "dav1.m3u8"])
        let av1 = try VariantPredicate(format: #"ANY codecs BEGINSWITH "av01" AND NOT videoAttributes.codecTypes CONTAINS "dav1""#)
        #expect(dv.filter(av1.evaluate).map(\.stream.uri) == ["cdm4.m3u8"])

        let scored = try variants("androidx-score-multivariant.m3u8")
        #expect(scored.filter(try VariantPredicate(format: "score >= 2").evaluate).map(\.stream.uri) == ["http://example.com/high.m3u8"])
        #expect(scored.filter(try VariantPredicate(format: "score > 1.25 AND score < 1.75").evaluate).count == 1)
    }

    @Test func missingValuesCompareFalse() throws {
        // No AVERAGE-BANDWIDTH anywhere; the last variant is audio only.
        let v = try variants("apple-bipbop-16x9-multilingual-subtitles-multivariant.m3u8")
        #expect(v.count == 6)
        func count(_ f: String) throws -> Int { v.filter(try VariantPredicate(format: f).evaluate).count }
        #expect(try count("averageBitRate < 100000000") == 0)
        #expect(try count("averageBitRate != 5") == 0)
        #expect(try count("averageBitRate == nil") == 6)
        #expect(try count("NOT (averageBitRate < 1)") == 6)
        #expect(try count("videoAttributes.presentationSize.width < 100000") == 5)
        #expect(try count("videoAttributes.presentationSize.width == nil") == 1)
        #expect(try count(#"ALL videoAttributes.codecTypes BEGINSWITH "avc1""#) == 5)
        #expect(try count(#"NONE videoAttributes.codecTypes BEGINSWITH "avc1""#) == 1)
        // Audio renditions without CHANNELS: no channel count to compare.
        #expect(try count("ANY audioAttributes.renditions.channelCount > 0") == 0)
        #expect(try count("ANY subtitleRenditions.language == 'ja'") == 6)
        #expect(try count(#"subtitleRenditions.name CONTAINS "日本語 (Forced)""#) == 6)
    }

    @Test func descriptionParsesBackToTheSamePredicate() throws {
        for format in [
            #"peakBitRate < 15000000 AND videoAttributes.videoRange == "PQ""#,
            #"(peakBitRate < 4000000 || peakBitRate > 29000000) && NOT videoAttributes.videoRange IN {'SDR'}"#,
            #"ANY audioAttributes.renditions.channelCount >= 6 OR uri BEGINSWITH[cd] "Dolby" AND averageBitRate != nil"#,
            #"videoAttributes.codecTypes CONTAINS "dvh1" AND peakBitRate BETWEEN {1, 2.5}"#,
            "ANY audioAttributes.renditions.isImmersive AND NOT (score == 1 OR score == 2)",
        ] {
            let p = try VariantPredicate(format: format)
            #expect(try VariantPredicate(format: p.description) == p, "\(p.description)")
        }
    }

    @Test func typeMismatchPointsAtTheLiteral() throws {
        let e = try #require(error(#"peakBitRate == "PQ""#))
        #expect(e.kind == .typeMismatch)
        #expect(e.column == 16)
        #expect(e.message.contains("peakBitRate is a number") && e.message.contains(#"the string "PQ""#))
        #expect(e.caret(in: #"peakBitRate == "PQ""#).hasSuffix("\n               ^ " + e.message))

        let b = try #require(error(#"videoAttributes.presentationSize.width > "wide""#))
        #expect(b.kind == .typeMismatch && b.column == 42)
        let bool = try #require(error("ANY audioAttributes.renditions.isBinaural == 2"))
        #expect(bool.kind == .typeMismatch && bool.column == 46)
    }

    @Test func unknownKeyPathSuggestsTheRightOne() throws {
        let e = try #require(error("peakBitRate < 5 AND peakBitrate > 1"))
        #expect(e.kind == .unknownKeyPath)
        #expect(e.column == 21)
        #expect(e.message.contains("did you mean peakBitRate?"))
        let w = try #require(error("videoAttributes.width > 3"))
        #expect(w.kind == .unknownKeyPath && w.column == 1)
        #expect(w.message.contains("expected one of") && w.message.contains("videoAttributes.presentationSize.width"))
    }

    @Test func lexicalErrorsHaveColumns() throws {
        let s = try #require(error(#"videoAttributes.videoRange == "PQ"#))
        #expect(s.kind == .unterminatedString && s.column == 31)
        #expect(s.message.contains("expected a closing \""))
        let q = try #require(error("uri == 'abc"))
        #expect(q.kind == .unterminatedString && q.column == 8)
        let c = try #require(error("peakBitRate ~ 5"))
        #expect(c.kind == .unexpectedCharacter && c.column == 13)
        let amp = try #require(error("peakBitRate < 5 & score > 1"))
        #expect(amp.kind == .unexpectedCharacter && amp.column == 17 && amp.message.contains("'&&'"))
        let n = try #require(error("peakBitRate < 5x"))
        #expect(n.kind == .invalidNumber && n.column == 15)
    }

    @Test func syntaxErrorsSayWhatWasExpected() throws {
        let op = try #require(error("peakBitRate 5000000"))
        #expect(op.kind == .unsupportedOperator && op.column == 13)
        #expect(op.message.contains("expected an operator"))
        let end = try #require(error("peakBitRate < 5 AND"))
        #expect(end.kind == .unexpectedEnd && end.column == 20)
        let paren = try #require(error("(peakBitRate < 5"))
        #expect(paren.kind == .unexpectedEnd && paren.column == 17 && paren.message.contains("expected ')'"))
        let trailing = try #require(error("peakBitRate < 5 score > 1"))
        #expect(trailing.kind == .unexpectedToken && trailing.column == 17)
        let list = try #require(error(#"videoAttributes.videoRange IN {"PQ" "HLG"}"#))
        #expect(list.kind == .unexpectedToken && list.column == 37)
        let matches = try #require(error(#"uri MATCHES ".*""#))
        #expect(matches.kind == .unsupportedOperator && matches.column == 5)
        let option = try #require(error(#"uri ==[x] "a""#))
        #expect(option.kind == .unsupportedOperator && option.column == 7)
    }

    @Test func typeRulesOfOperatorsAndCollections() throws {
        let order = try #require(error(#"videoAttributes.videoRange < 3"#))
        #expect(order.kind == .unsupportedOperator && order.column == 28)
        let value = try #require(error(#"videoAttributes.videoRange == "HDR""#))
        #expect(value.kind == .invalidValue && value.column == 31 && value.message.contains(#""SDR", "HLG", "PQ""#))
        let inList = try #require(error(#"videoAttributes.videoRange IN {"PQ", "DV"}"#))
        #expect(inList.kind == .invalidValue && inList.column == 38)
        let collection = try #require(error(#"videoAttributes.codecTypes == "dvh1""#))
        #expect(collection.kind == .typeMismatch && collection.column == 1 && collection.message.contains("ANY, ALL or NONE"))
        let quantified = try #require(error("peakBitRate > 1 AND ALL peakBitRate > 5"))
        #expect(quantified.kind == .typeMismatch && quantified.column == 21)
        let inScalar = try #require(error("peakBitRate IN 5"))
        #expect(inScalar.kind == .typeMismatch && inScalar.column == 16)
        let twoKeys = try #require(error("averageBitRate < peakBitRate"))
        #expect(twoKeys.kind == .typeMismatch && twoKeys.column == 18)
        let bare = try #require(error("peakBitRate"))
        #expect(bare.kind == .typeMismatch)
        let between = try #require(error("peakBitRate BETWEEN {1}"))
        #expect(between.kind == .typeMismatch && between.column == 21)
        let swapped = try #require(error(#""PQ" BEGINSWITH uri"#))
        #expect(swapped.kind == .unsupportedOperator && swapped.column == 6)
    }
}

extension SelectionPredicateTests {
    @Test func diacriticAndCaseInsensitiveOptions() throws {
        let v = try variants("apple-bipbop-16x9-multilingual-subtitles-multivariant.m3u8")
        func count(_ f: String) throws -> Int { v.filter(try VariantPredicate(format: f).evaluate).count }
        #expect(try count(#"ANY subtitleRenditions.name ==[cd] "francais""#) == 6)
        #expect(try count(#"ANY subtitleRenditions.name ==[c] "francais""#) == 0)
        #expect(try count(#"ANY subtitleRenditions.name ==[d] "francais""#) == 0)
        #expect(try count(#"ANY subtitleRenditions.name == "Français""#) == 6)
        // Language key paths compare as tags: "eng" and "en-GB" name English.
        #expect(try count(#"ANY subtitleRenditions.language == "eng""#) == 6)
        #expect(try count(#"ANY subtitleRenditions.language IN {"de", "en-GB"}"#) == 6)
        #expect(try count(#"NONE subtitleRenditions.language == "de""#) == 6)
    }
}

extension SelectionPredicateTests {
    @Test func countsOfCollections() throws {
        let mixed = try SelectionQualifierTests.mixedAudioVariants()
        func matches(_ f: String) throws -> [Bool] { mixed.map(try VariantPredicate(format: f).evaluate) }
        #expect(try matches("audioAttributes.renditions.@count >= 2") == [false, true])
        #expect(try matches("audioAttributes.renditions.@count == 4 AND subtitleRenditions.@count == 0") == [false, true])
        #expect(try matches("videoAttributes.codecTypes.@count == 1 AND audioAttributes.formatIDs.@count BETWEEN {1, 1}") == [true, true])
        // Language CONTAINS on a collection names the language, like ==.
        #expect(try matches(#"audioAttributes.renditions.language CONTAINS "fre""#) == [false, true])
        #expect(try matches(#"NOT audioAttributes.renditions.language CONTAINS "en-US""#) == [false, false])
        let p = try VariantPredicate(format: "audioAttributes.renditions.@count > 1 OR videoAttributes.codecTypes.@count != 1")
        #expect(try VariantPredicate(format: p.description) == p)

        let single = try #require(error("peakBitRate.@count > 1"))
        #expect(single.kind == .typeMismatch && single.column == 1)
        let type = try #require(error(#"badges.@count == "two""#))
        #expect(type.kind == .typeMismatch && type.column == 18)
    }
}
