import Foundation
import Testing

@testable import HLS

/// The interstitial date range writer and reader agree on every attribute, and a playlist
/// with interstitials scheduled into it is strict-valid.
@Suite("HLS: writing interstitial date ranges")
struct InterstitialWritingTests {
    static func media(segments: Int = 10, length: Double = 6) -> MediaPlaylist {
        var playlist = MediaPlaylist()
        playlist.version = 7
        playlist.targetDuration = Int(length)
        playlist.playlistType = .vod
        playlist.independentSegments = true
        playlist.endList = true
        for i in 0..<segments {
            var segment = MediaSegment(uri: "segment-\(i).m4s", duration: length)
            segment.map = MediaInitializationSection(uri: "init.mp4")
            playlist.segments.append(segment)
        }
        return playlist
    }

    static let everyAttribute = Interstitial(
        id: "break-1", startDate: Date(timeIntervalSince1970: 0), duration: 15, assetURI: "/media/ad/master.m3u8",
        resumeOffset: 0, playoutLimit: 12.5, snap: ["OUT", "IN"], restrict: ["SKIP", "JUMP"], cue: ["ONCE"],
        timelineOccupies: "RANGE", timelineStyle: "PRIMARY", contentMayVary: false,
        skipControlOffset: 5, skipControlDuration: 4.25, skipControlLabelID: "skip-break-one")

    @Test("Every attribute survives a write and a strict read")
    func roundTripEveryAttribute() throws {
        let anchor = Date(timeIntervalSince1970: 1_700_000_000.25)
        var list = Self.everyAttribute
        list.id = "break-2"
        list.assetURI = nil
        list.assetList = "https://ads.example.com/list.json?break=2"
        list.cue = ["PRE"]
        list.contentMayVary = true
        var playlist = Self.media()
        playlist.scheduleInterstitials(
            [
                PlacedInterstitial(time: 20.5, interstitial: Self.everyAttribute),
                PlacedInterstitial(time: 0, interstitial: list),
            ], programDateTime: anchor)
        let text = PlaylistWriter.write(.media(playlist))
        #expect(text.contains("#EXT-X-PROGRAM-DATE-TIME:2023-11-14T22:13:20.250Z"))
        #expect(text.contains(#"CLASS="com.apple.hls.interstitial""#))
        for attribute in [
            "X-ASSET-URI", "X-ASSET-LIST", "X-RESUME-OFFSET=0", "X-PLAYOUT-LIMIT=12.5", #"X-SNAP="OUT,IN""#,
            #"X-RESTRICT="SKIP,JUMP""#, #"CUE="ONCE""#, #"CUE="PRE""#, #"X-TIMELINE-OCCUPIES="RANGE""#,
            #"X-TIMELINE-STYLE="PRIMARY""#, #"X-CONTENT-MAY-VARY="NO""#, "X-SKIP-CONTROL-OFFSET=5",
            "X-SKIP-CONTROL-DURATION=4.25", #"X-SKIP-CONTROL-LABEL-ID="skip-break-one""#,
        ] {
            #expect(text.contains(attribute), "\(attribute) missing from\n\(text)")
        }
        let result = PlaylistParser.parse(text, options: .strict)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let read = try #require(result.playlist?.media)
        let interstitials = read.interstitials.compactMap(\.interstitial)
        #expect(interstitials.count == 2)
        var expected = Self.everyAttribute
        expected.startDate = interstitials.first { $0.id == "break-1" }?.startDate
        #expect(interstitials.first { $0.id == "break-1" } == expected)
        list.startDate = interstitials.first { $0.id == "break-2" }?.startDate
        #expect(interstitials.first { $0.id == "break-2" } == list)
        // The dates place each break where it was scheduled on the playlist's timeline.
        let first = try #require(interstitials.first { $0.id == "break-1" }?.startDate)
        #expect(abs((read.playlistTime(of: first) ?? -1) - 20.5) < 0.001)
        // Written again, the playlist is the same text.
        #expect(PlaylistWriter.write(.media(read)) == text)
    }

    @Test("Each break goes before the segment it starts in, and scheduling again replaces the old ones")
    func placementAndReplacement() throws {
        var playlist = Self.media()
        var ad = Self.everyAttribute
        playlist.scheduleInterstitials([PlacedInterstitial(time: 13, interstitial: ad)], programDateTime: Date(timeIntervalSince1970: 0))
        #expect(playlist.dateRanges.map(\.segmentIndex) == [2])
        ad.id = "other"
        playlist.scheduleInterstitials([PlacedInterstitial(time: 60, interstitial: ad)], programDateTime: Date(timeIntervalSince1970: 99))
        #expect(playlist.dateRanges.map(\.id) == ["other"])
        #expect(playlist.dateRanges.map(\.segmentIndex) == [9], "a post-roll at the end sits before the last segment")
        // The first schedule's programme date time stays: every rendition keeps one timeline.
        #expect(playlist.segments[0].programDateTime?.date == Date(timeIntervalSince1970: 0))
    }
}
