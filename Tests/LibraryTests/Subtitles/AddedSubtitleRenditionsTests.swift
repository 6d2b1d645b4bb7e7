import Foundation
import HLS
import Testing

@testable import Library

@Suite("Subtitle files as HLS subtitle renditions")
struct AddedSubtitleRenditionsTests {
    static let master = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio-1/index.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,AUDIO="aud"
        video-1/index.m3u8

        """

    func file(_ label: String, language: String?) -> SubtitleFile {
        SubtitleFile(assetID: "a", language: language, label: label, format: .subRip, cueCount: 1, webVTT: "WEBVTT\n")
    }

    @Test func renditionsJoinAGroupTheVariantsNameAndLeaveWhenRemoved() throws {
        let japanese = file("日本語", language: "ja")
        let english = file("English", language: "en")
        let text = try AddedSubtitleRenditions.multivariant(Self.master, files: [japanese, english])
        let parsed = PlaylistParser.parse(text, options: .strict)
        #expect(parsed.errors.isEmpty, "\(parsed.errors.map(\.fullMessage))")
        let playlist = try #require(parsed.playlist?.multivariant)
        let subtitles = playlist.renditions.filter { $0.type == .subtitles }
        #expect(subtitles.map(\.name) == ["日本語", "English"])
        #expect(subtitles.map(\.language) == ["ja", "en"])
        #expect(subtitles.map(\.uri) == ["subtitles/\(japanese.id).m3u8", "subtitles/\(english.id).m3u8"])
        #expect(playlist.variants.map(\.subtitles) == ["subs"])

        // Rewriting with fewer files replaces the added renditions, not adds to them.
        let fewer = try AddedSubtitleRenditions.multivariant(text, files: [english])
        #expect(PlaylistParser.parse(fewer).playlist?.multivariant?.renditions.filter { $0.type == .subtitles }.map(\.name) == ["English"])
        let none = try AddedSubtitleRenditions.multivariant(fewer, files: [])
        #expect(!none.contains("SUBTITLES"))
    }

    @Test func embeddedRenditionsStayAndNamesStayUnique() throws {
        let withEmbedded = Self.master.replacingOccurrences(
            of: "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=1280x720,AUDIO=\"aud\"",
            with: """
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="text",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="subtitles-1/index.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,AUDIO="aud",SUBTITLES="text"
                """)
        let text = try AddedSubtitleRenditions.multivariant(withEmbedded, files: [file("English", language: "en")])
        let playlist = try #require(PlaylistParser.parse(text, options: .strict).playlist?.multivariant)
        #expect(playlist.renditions.filter { $0.type == .subtitles }.map(\.name) == ["English", "English 2"])
        #expect(playlist.renditions.filter { $0.type == .subtitles }.allSatisfy { $0.groupID == "text" })
        #expect(playlist.variants.map(\.subtitles) == ["text"])
        #expect(try AddedSubtitleRenditions.multivariant(text, files: []).contains("subtitles-1/index.m3u8"))
    }

    @Test func onlyAddedFilesAreTakenForAddedFiles() {
        #expect(AddedSubtitleRenditions.isAddedFile("subtitles/sub-0a1b2c3d.m3u8"))
        #expect(AddedSubtitleRenditions.isAddedFile("subtitles/sub-0a1b2c3d.vtt"))
        #expect(!AddedSubtitleRenditions.isAddedFile("subtitles/index.m3u8"))
        #expect(!AddedSubtitleRenditions.isAddedFile("subtitles-1/index.m3u8"))
        #expect(!AddedSubtitleRenditions.isAddedFile("x/subtitles/sub-0a1b2c3d.vtt"))
    }

    @Test func mediaPlaylistIsOneSegmentAsLongAsTheItem() throws {
        let subtitles = file("English", language: "en")
        let text = AddedSubtitleRenditions.mediaPlaylist(for: subtitles, duration: 12.4)
        let media = try #require(PlaylistParser.parse(text, options: .strict).playlist?.media)
        #expect(media.segments.map(\.uri) == ["\(subtitles.id).vtt"])
        #expect(media.duration == 12.4 && media.targetDuration == 13 && media.endList)
    }
}
