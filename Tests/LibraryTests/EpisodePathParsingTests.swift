import Foundation
import Testing

@testable import Library

@Suite("Episodes from folder names")
struct EpisodePathParsingTests {
    @Test func theFileNameWinsWhenItNamesTheSeries() {
        #expect(
            EpisodeParser.parse(path: "/media/Other/Show Name - S01E02 - Pilot.mkv") == Episode(seriesTitle: "Show Name", season: 1, number: 2, title: "Pilot"))
        #expect(EpisodeParser.parse(path: "/media/Show - 1x02.mkv") == Episode(seriesTitle: "Show", season: 1, number: 2))
    }

    @Test func aCodeAloneTakesTheSeriesFromItsFolders() {
        #expect(EpisodeParser.parse(path: "/media/Harbour Days/S01E03.mkv") == Episode(seriesTitle: "Harbour Days", season: 1, number: 3))
        #expect(
            EpisodeParser.parse(path: "/media/Harbour Days/Season 2/2x04 - The Storm.mp4")
                == Episode(seriesTitle: "Harbour Days", season: 2, number: 4, title: "The Storm"))
    }

    @Test func aNumberInASeasonFolderIsAnEpisode() {
        #expect(
            EpisodeParser.parse(path: "/media/Harbour Days/Season 02/03 - Low Tide.mkv")
                == Episode(seriesTitle: "Harbour Days", season: 2, number: 3, title: "Low Tide"))
        #expect(EpisodeParser.parse(path: "/media/Harbour_Days/S3/Episode 4.mp4") == Episode(seriesTitle: "Harbour Days", season: 3, number: 4))
        #expect(EpisodeParser.season(ofFolder: "Staffel 5") == 5)
        #expect(EpisodeParser.season(ofFolder: "Seasoned") == nil)
    }

    @Test func filmsStayFilms() {
        #expect(EpisodeParser.parse(path: "/media/Films/1917.mkv") == nil)
        #expect(EpisodeParser.parse(path: "/media/Films/S1/Blade Runner 2049.mkv") == nil)
        #expect(EpisodeParser.parse(path: "/media/Season 1/03 - Alone.mkv") == Episode(seriesTitle: "media", season: 1, number: 3, title: "Alone"))
        #expect(EpisodeParser.parse(path: "Pilot.mkv") == nil)
    }
}
