import Foundation
import JSONDocument
import Testing

@testable import HLS

/// HLS Interstitials read to the letter, as hls.js and the spec read them: a duration from
/// END-DATE, PRE and POST together refused, enumerated `X-` values quoted, skip-control label
/// IDs in their allowed characters, and every interstitial attribute in the JSON report.
@Suite("Interstitial rules")
struct InterstitialRulesTests {
    static func playlist(_ dateRange: String) -> String {
        """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
        #EXTINF:6,
        a.ts
        \(dateRange)
        #EXTINF:6,
        b.ts
        #EXT-X-ENDLIST

        """
    }

    static let base = #"#EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:03.000Z""#

    @Test func anInterstitialWithEndDateAndNoDurationLastsUntilItsEnd() throws {
        let text = Self.playlist(Self.base + #",END-DATE="2026-01-01T00:00:18.500Z",X-ASSET-URI="ad.m3u8""#)
        let result = PlaylistParser.parse(text, options: .strict)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let interstitial = try #require(result.playlist?.media?.interstitials.first?.interstitial)
        #expect(interstitial.duration == 15.5)
        let json = InspectionReport.json(for: result, url: URL(string: "https://cdn.example/index.m3u8")).serialized()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let reported = try #require((object["interstitials"] as? [[String: Any]])?.first)
        #expect(reported["duration"] as? Double == 15.5)
        #expect((object["dateRanges"] as? [[String: Any]])?.first?["duration"] as? Double == 15.5)
    }

    @Test func preAndPostTogetherIsAnErrorStrictlyAndAWarningOtherwise() throws {
        let text = Self.playlist(Self.base + #",DURATION=5,CUE="PRE,POST",X-ASSET-URI="ad.m3u8""#)
        let strict = PlaylistParser.parse(text, options: .strict)
        #expect(strict.errors.contains { $0.attribute == "CUE" && $0.line == 7 }, "\(strict.diagnostics)")
        let lenient = PlaylistParser.parse(text)
        #expect(lenient.errors.isEmpty)
        #expect(lenient.warnings.contains { $0.attribute == "CUE" })
    }

    @Test(arguments: ["X-RESTRICT=SKIP", "X-SNAP=OUT", "X-TIMELINE-OCCUPIES=RANGE", "X-TIMELINE-STYLE=PRIMARY", "X-CONTENT-MAY-VARY=NO"])
    func unquotedEnumeratedValuesAreRefusedStrictly(attribute: String) throws {
        let text = Self.playlist(Self.base + #",DURATION=5,X-ASSET-URI="ad.m3u8","# + attribute)
        let name = String(attribute.prefix { $0 != "=" })
        #expect(PlaylistParser.parse(text, options: .strict).errors.contains { $0.attribute == name })
        let quoted = Self.playlist(Self.base + #",DURATION=5,X-ASSET-URI="ad.m3u8","# + name + "=\"" + attribute.split(separator: "=")[1] + "\"")
        #expect(PlaylistParser.parse(quoted, options: .strict).errors.isEmpty)
    }

    @Test func skipControlLabelIDsUseOnlyTheAllowedCharacters() throws {
        let bad = Self.playlist(Self.base + #",DURATION=5,X-ASSET-URI="ad.m3u8",X-SKIP-CONTROL-OFFSET=3,X-SKIP-CONTROL-LABEL-ID="skip 1.ad""#)
        #expect(PlaylistParser.parse(bad, options: .strict).errors.contains { $0.attribute == "X-SKIP-CONTROL-LABEL-ID" })
        // What Marquee writes for any event id is allowed, and distinct ids stay distinct.
        let ids = ["ev-1a2b", "legacy-12", "ev-1a2c", "a_b", "a-b", "広告", "x y", ""]
        let labels = ids.map { Interstitial.skipControlLabelID(for: "skip-\($0)") }
        #expect(labels.allSatisfy(Interstitial.isValidSkipControlLabelID), "\(labels)")
        #expect(Set(labels).count == ids.count)
    }

    @Test func theReportCarriesEveryInterstitialAttribute() throws {
        let text = Self.playlist(
            Self.base
                + #",DURATION=5,X-ASSET-URI="ad.m3u8",X-TIMELINE-OCCUPIES="RANGE",X-TIMELINE-STYLE="PRIMARY",X-CONTENT-MAY-VARY="NO","#
                + #"X-SKIP-CONTROL-OFFSET=2,X-SKIP-CONTROL-LABEL-ID="skip-label""#)
        let result = PlaylistParser.parse(text, options: .strict)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let json = InspectionReport.json(for: result, url: nil).serialized()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let reported = try #require((object["interstitials"] as? [[String: Any]])?.first)
        #expect(reported["timelineOccupies"] as? String == "RANGE")
        #expect(reported["timelineStyle"] as? String == "PRIMARY")
        #expect(reported["contentMayVary"] as? Bool == false)
        #expect(reported["skipControlLabelID"] as? String == "skip-label")
    }
}
