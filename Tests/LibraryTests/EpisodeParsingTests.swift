import Foundation
import Testing

@testable import Library

@Suite("Series and episodes from file names and tags")
struct EpisodeParsingTests {
    @Test(
        arguments: [
            ("Show Name - S01E02 - Episode Title.mp4", "Show Name", 1, 2, "Episode Title"),
            ("show.name.s1e2.mkv", "show name", 1, 2, nil),
            ("The Office 2x05.mp4", "The Office", 2, 5, nil),
            ("Show - S01E01.mp4", "Show", 1, 1, nil),
            ("Planet_Earth_S02E10_Finale.m4v", "Planet Earth", 2, 10, "Finale"),
            ("Doctor Who (2005) - S10E01-E02 - The Pilot.mkv", "Doctor Who (2005)", 10, 1, "The Pilot"),
            ("Series Season 3 Episode 7.mp4", "Series", 3, 7, nil),
        ] as [(String, String, Int, Int, String?)])
    func fileNames(name: String, series: String, season: Int, episode: Int, title: String?) {
        let parsed = EpisodeParser.parse(fileName: name)
        #expect(parsed == Episode(seriesTitle: series, season: season, number: episode, title: title))
    }

    @Test(arguments: ["Holiday Video.mp4", "1080p sample.mkv", "S01E02.mp4", "Movie 2019.mp4", "x264-group.mkv"])
    func namesThatAreNotEpisodes(name: String) {
        #expect(EpisodeParser.parse(fileName: name) == nil)
    }

    @Test func mp4TagsAsFFmpegNamesThem() {
        // tvsh → show, tvsn → season_number, tves → episode_sort, tven → episode_id
        let episode = EpisodeParser.parse(tags: [
            "show": "Tagged Show", "season_number": "2", "episode_sort": "3",
            "episode_id": "S02E03", "title": "The Third One",
        ])
        #expect(episode == Episode(seriesTitle: "Tagged Show", season: 2, number: 3, title: "The Third One"))
        #expect(episode?.label == "S2 · E3 — The Third One")
    }

    @Test func episodeIDFillsMissingNumbersAndMatroskaStyleTags() {
        #expect(EpisodeParser.parse(tags: ["show": "A", "episode_id": "s4e9"]) == Episode(seriesTitle: "A", season: 4, number: 9))
        #expect(
            EpisodeParser.parse(tags: ["series": "B", "season": "1", "episode": "5/10", "title": "Five"])
                == Episode(seriesTitle: "B", season: 1, number: 5, title: "Five"))
        #expect(EpisodeParser.parse(tags: ["title": "No series"]) == nil)
    }

    @Test func labels() {
        #expect(Episode(seriesTitle: "S", season: 1, number: 2, title: "Title").label == "S1 · E2 — Title")
        #expect(Episode(seriesTitle: "S", season: 1, number: 2).label == "S1 · E2")
        #expect(Episode(seriesTitle: "S", number: 4).label == "E4")
    }

    @Test func probeReadsEpisodeAndLiveDatesFromAnMP4sTags() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let url = temp.root.appendingPathComponent("tagged.mp4")
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run([
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=24:duration=1",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-metadata", "title=Pilot", "-metadata", "show=Tag Town", "-metadata", "season_number=1",
            "-metadata", "episode_sort=2", "-metadata", "episode_id=S01E02", "-metadata", "date=2024-05-01", url.path,
        ])
        let probe = try await BundlePackager().probe(url)
        #expect(probe.episode == Episode(seriesTitle: "Tag Town", season: 1, number: 2, title: "Pilot"))
        #expect(probe.releaseDate == "2024-05-01")

        let mkv = temp.root.appendingPathComponent("live.mkv")
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run([
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=24:duration=1",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-metadata", "SHOW=Concerts", "-metadata", "SEASON=3", "-metadata", "EPISODE=1",
            "-metadata", "LIVE_START_DATE=2026-11-20T19:00:00Z", "-metadata", "LIVE_END_DATE=2026-11-20T21:30:00Z", mkv.path,
        ])
        let live = try await BundlePackager().probe(mkv)
        #expect(live.episode?.seriesTitle == "Concerts" && live.episode?.season == 3 && live.episode?.number == 1)
        #expect(live.liveStartDate == LiveDates.parse("2026-11-20T19:00:00Z"))
        #expect(live.liveEndDate.map { $0.timeIntervalSince(live.liveStartDate!) } == 9000)
    }
}
