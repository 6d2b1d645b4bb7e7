import Foundation
import Testing

@testable import HLS

/// Each file in `corpus/hls-malformed` has one documented defect (see its README): strict mode
/// must report it at the documented lines, lenient mode must repair or report it as
/// documented, and neither may crash.
@Suite("Malformed playlists give their documented errors")
struct MalformedTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        /// Lines that must carry a strict error, with a fragment of the message.
        var strictErrors: [(line: Int, contains: String)]
        /// The attribute the first error names, where the README names one.
        var attribute: String? = nil
        var description: String { file }
    }

    static let expectations: [Expectation] = [
        .init(file: "missing-extm3u.m3u8", strictErrors: [(1, "#EXTM3U")]),
        .init(file: "bom-before-extm3u.m3u8", strictErrors: [(1, "byte order mark")]),
        .init(file: "unterminated-quoted-string.m3u8", strictErrors: [(3, "not closed")], attribute: "URI"),
        .init(file: "truncated-mid-attribute.m3u8", strictErrors: [(6, "not closed"), (6, "no URI")], attribute: "CODECS"),
        .init(file: "stream-inf-without-uri.m3u8", strictErrors: [(4, "no URI"), (7, "no URI")]),
        .init(file: "stream-inf-missing-bandwidth.m3u8", strictErrors: [(5, "BANDWIDTH")], attribute: "BANDWIDTH"),
        .init(
            file: "resolution-not-WxH.m3u8",
            strictErrors: [
                (2, "RESOLUTION"), (4, "RESOLUTION"), (6, "RESOLUTION"),
                (8, "RESOLUTION"), (10, "RESOLUTION"), (12, "RESOLUTION"),
            ], attribute: "RESOLUTION"),
        .init(file: "duplicate-attribute-name.m3u8", strictErrors: [(2, "more than once")], attribute: "BANDWIDTH"),
        .init(file: "decimal-integer-overflow.m3u8", strictErrors: [(4, "2^64-1")]),
        .init(file: "binary-garbage.m3u8", strictErrors: [(1, "not a playlist")]),
        .init(file: "negative-extinf.m3u8", strictErrors: [(7, "negative"), (9, "negative")]),
        .init(file: "missing-targetduration.m3u8", strictErrors: [(1, "required")]),
        .init(file: "extinf-exceeds-targetduration.m3u8", strictErrors: [(7, "TARGETDURATION"), (9, "TARGETDURATION")]),
        .init(file: "media-sequence-after-first-segment.m3u8", strictErrors: [(6, "before the first media segment")]),
        .init(file: "mixed-media-and-multivariant-tags.m3u8", strictErrors: [(0, "must not contain both")]),
        .init(file: "byterange-without-previous-offset.m3u8", strictErrors: [(6, "no offset"), (12, "no offset")]),
        .init(file: "key-iv-wrong-length.m3u8", strictErrors: [(5, "IV"), (8, "IV"), (11, "IV")], attribute: "IV"),
        .init(file: "undefined-variable.m3u8", strictErrors: [(9, "{$hots}")]),
        .init(file: "nested-define-loop.m3u8", strictErrors: [(3, "{$b}")]),
        .init(file: "define-expansion-blowup.m3u8", strictErrors: [(20, "expanded value too large")]),
        .init(file: "daterange-end-before-start.m3u8", strictErrors: [(6, "before START-DATE")], attribute: "END-DATE"),
        .init(file: "duplicate-daterange-id-conflict.m3u8", strictErrors: [(11, "conflicts with line 6")]),
        .init(file: "interstitial-asset-uri-and-asset-list.m3u8", strictErrors: [(6, "exactly one of X-ASSET-URI and X-ASSET-LIST")]),
        .init(file: "part-without-part-inf.m3u8", strictErrors: [(0, "EXT-X-PART")]),
    ]

    @Test("every malformed file has an expectation")
    func everyFileCovered() {
        let files = Set(Corpus.files(in: Corpus.malformed))
        let covered = Set(Self.expectations.map(\.file) + ["huge-attribute-value.m3u8"])
        #expect(files.count >= 25)
        #expect(files.subtracting(covered).isEmpty, "uncovered: \(files.subtracting(covered).sorted())")
    }

    @Test("strict mode reports the documented error with its position", arguments: expectations)
    func strict(_ e: Expectation) throws {
        let result = PlaylistParser.parse(try Corpus.data(e.file, in: Corpus.malformed), options: .strict)
        let errors = result.errors
        #expect(!errors.isEmpty, "\(e.file): no errors")
        for (line, fragment) in e.strictErrors {
            let match = errors.contains { ($0.line == line || line == 0) && $0.description.contains(fragment) }
            #expect(match, "\(e.file): no error on line \(line) containing '\(fragment)'; got \(errors.map(\.description))")
        }
        if line0(e) { return }
        #expect(errors.allSatisfy { $0.column >= 1 })
        if let attribute = e.attribute {
            #expect(errors.first?.attribute == attribute, "\(e.file): first error names \(errors.first?.attribute ?? "nothing")")
        }
    }

    private func line0(_ e: Expectation) -> Bool { e.strictErrors.contains { $0.line == 0 } }

    @Test("lenient mode never crashes and never hides the defect", arguments: expectations)
    func lenient(_ e: Expectation) throws {
        let result = PlaylistParser.parse(try Corpus.data(e.file, in: Corpus.malformed), options: .lenient)
        #expect(!result.diagnostics.isEmpty, "\(e.file): lenient parse said nothing")
    }

    // MARK: Documented lenient repairs

    func lenient(_ file: String) throws -> ParseResult {
        PlaylistParser.parse(try Corpus.data(file, in: Corpus.malformed), options: .lenient)
    }

    @Test func bomIsStrippedWhenLenient() throws {
        let r = try lenient("bom-before-extm3u.m3u8")
        #expect(r.errors.isEmpty)
        #expect(r.playlist?.media?.segments.count == 2)
    }

    @Test func unterminatedQuoteDropsOnlyThatRendition() throws {
        let p = try #require(try lenient("unterminated-quoted-string.m3u8").playlist?.multivariant)
        #expect(p.renditions.map(\.language) == ["fr"])
        #expect(p.variants.map(\.uri) == ["video/720p.m3u8"])
    }

    @Test func truncatedPlaylistKeepsTheCompleteVariant() throws {
        let r = try lenient("truncated-mid-attribute.m3u8")
        #expect(r.playlist?.multivariant?.variants.map(\.uri) == ["v5/prog_index.m3u8"])
        #expect(r.warnings.contains { $0.message.contains("truncated") })
    }

    @Test func urilessVariantsAreDroppedNotMisattached() throws {
        let p = try #require(try lenient("stream-inf-without-uri.m3u8").playlist?.multivariant)
        #expect(p.variants.map(\.attributes.bandwidth) == [1_280_000, 7_680_000])
        #expect(p.variants.map(\.uri) == ["low/index.m3u8", "high/index.m3u8"])
    }

    @Test func missingBandwidthKeepsVariantWithUnknownPeak() throws {
        let p = try #require(try lenient("stream-inf-missing-bandwidth.m3u8").playlist?.multivariant)
        let v = try #require(p.variants.last)
        #expect(v.attributes.bandwidth == nil)
        #expect(v.attributes.averageBandwidth != nil)
    }

    @Test func badResolutionsAreAbsentExceptCapitalX() throws {
        let p = try #require(try lenient("resolution-not-WxH.m3u8").playlist?.multivariant)
        let resolutions = p.variants.map(\.attributes.resolution)
        #expect(resolutions.count == 6)
        #expect(resolutions.compactMap { $0 } == [Resolution(width: 1920, height: 1080)])
    }

    @Test func duplicateAttributeFirstWins() throws {
        let p = try #require(try lenient("duplicate-attribute-name.m3u8").playlist?.multivariant)
        #expect(p.variants.first?.attributes.bandwidth == 1_280_000)
    }

    @Test func overflowIsRejectedInBothModes() throws {
        let r = try lenient("decimal-integer-overflow.m3u8")
        #expect(r.playlist == nil)
        #expect(r.errors.first?.line == 4)
    }

    @Test func binaryGarbageFailsAtOnce() throws {
        let r = try lenient("binary-garbage.m3u8")
        #expect(r.playlist == nil)
        #expect(r.errors.count == 1)
        #expect(r.errors.first?.line == 1)
    }

    @Test func negativeDurationsNeverReachTheTimeline() throws {
        let p = try #require(try lenient("negative-extinf.m3u8").playlist?.media)
        #expect(p.segments.allSatisfy { $0.duration >= 0 })
    }

    @Test func missingTargetDurationIsInferred() throws {
        let p = try #require(try lenient("missing-targetduration.m3u8").playlist?.media)
        #expect(p.targetDuration == nil)
        #expect(p.effectiveTargetDuration == 10)
    }

    @Test func lateMediaSequenceAppliesToWholePlaylist() throws {
        let p = try #require(try lenient("media-sequence-after-first-segment.m3u8").playlist?.media)
        #expect(p.mediaSequence == 500)
    }

    @Test func mixedPlaylistFails() throws {
        #expect(try lenient("mixed-media-and-multivariant-tags.m3u8").playlist == nil)
    }

    @Test func byteRangeWithoutOffsetAssumesZeroAndContinues() throws {
        let p = try #require(try lenient("byterange-without-previous-offset.m3u8").playlist?.media)
        #expect(p.segments.map(\.resolvedByteRangeOffset) == [0, 75232, 0])
    }

    @Test func shortIVIsPaddedLongAndUnprefixedRejected() throws {
        let r = try lenient("key-iv-wrong-length.m3u8")
        let p = try #require(r.playlist?.media)
        #expect(p.segments[0].keys.first?.iv == [UInt8](repeating: 0, count: 13) + [0x01, 0x56, 0x6B])
        #expect(r.errors.map(\.line) == [8, 11])
    }

    @Test func defineLoopTerminatesWithAnError() throws {
        let r = try lenient("nested-define-loop.m3u8")
        #expect(r.errors.first?.line == 3)
    }

    @Test func expansionBlowupStopsBeforeAllocating() throws {
        let r = try lenient("define-expansion-blowup.m3u8")
        #expect(r.playlist == nil)
        #expect(r.errors.last?.message.contains("expanded value too large") == true)
    }

    @Test func invalidDateRangeIsIgnored() throws {
        let p = try #require(try lenient("daterange-end-before-start.m3u8").playlist?.media)
        #expect(p.dateRanges.isEmpty)
        #expect(!p.segments.isEmpty)
    }

    @Test func conflictingDateRangeKeepsFirst() throws {
        let p = try #require(try lenient("duplicate-daterange-id-conflict.m3u8").playlist?.media)
        #expect(p.dateRanges.count == 1)
        #expect(p.dateRanges.first?.classValue == "com.example.ad")
        #expect(p.dateRanges.first?.plannedDuration == 30)
    }

    @Test func interstitialWithBothAssetsIsIgnored() throws {
        let p = try #require(try lenient("interstitial-asset-uri-and-asset-list.m3u8").playlist?.media)
        #expect(p.interstitials.isEmpty)
        #expect(!p.segments.isEmpty)
    }

    @Test func partsWithoutPartInfAreIgnored() throws {
        let p = try #require(try lenient("part-without-part-inf.m3u8").playlist?.media)
        #expect(p.segments.allSatisfy { $0.parts.isEmpty })
        #expect(p.trailingParts.isEmpty && p.preloadHints.isEmpty)
    }

    @Test func hugeAttributeHonoursTheConfiguredLimit() throws {
        let data = try Corpus.data("huge-attribute-value.m3u8", in: Corpus.malformed)
        let limited = PlaylistParser.parse(data, options: ParseOptions(mode: .strict, maximumLineLength: 64 * 1024))
        #expect(limited.errors.contains { $0.message.contains("limit exceeded") && $0.line > 1 })
        let lenient = PlaylistParser.parse(data, options: ParseOptions(mode: .lenient, maximumLineLength: 64 * 1024))
        #expect(lenient.errors.isEmpty)
        #expect(lenient.playlist?.multivariant?.sessionData.isEmpty == true)
        #expect(lenient.playlist?.multivariant?.variants.count == 1)
        let unlimited = PlaylistParser.parse(data, options: ParseOptions(mode: .strict, maximumLineLength: nil))
        #expect(unlimited.errors.isEmpty)
        #expect(unlimited.playlist?.multivariant?.sessionData.first?.value?.utf8.count == 1_048_576)
    }
}
