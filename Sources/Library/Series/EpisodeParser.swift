import Foundation

/// Reads series, season and episode from a file name ("Show Name - S01E02 - Episode Title",
/// "show.name.s1e2.mkv", "Show 1x02") and from container tags (MP4's `tvsh`/`tvsn`/`tves`,
/// which FFmpeg exposes as `show`, `season_number`, `episode_sort` and `episode_id`;
/// Matroska's `SHOW`, `SEASON`, `EPISODE`…).
public enum EpisodeParser {
    /// The episode a file name describes, or `nil` when it names no season/episode pattern.
    public static func parse(fileName: String) -> Episode? {
        var stem = fileName
        if let dot = stem.lastIndex(of: "."), stem.distance(from: dot, to: stem.endIndex) <= 6,
            stem[stem.index(after: dot)...].allSatisfy({ $0.isLetter || $0.isNumber })
        {
            stem = String(stem[..<dot])
        }
        let patterns = [
            #"(?i)(?<![a-z0-9])s(\d{1,3})[ ._-]*e(\d{1,4})(?:-?e\d{1,4})*(?![0-9])"#,
            #"(?i)(?<![a-z0-9])(\d{1,2})x(\d{1,3})(?![0-9])"#,
            #"(?i)(?<![a-z0-9])season[ ._-]*(\d{1,3})[ ._-]*episode[ ._-]*(\d{1,4})(?![0-9])"#,
        ]
        for pattern in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern),
                let match = regex.firstMatch(in: stem, range: NSRange(stem.startIndex..., in: stem)),
                let whole = Range(match.range, in: stem),
                let seasonRange = Range(match.range(at: 1), in: stem),
                let episodeRange = Range(match.range(at: 2), in: stem)
            else { continue }
            let series = tidy(String(stem[..<whole.lowerBound]))
            guard !series.isEmpty else { continue }
            let rest = tidy(String(stem[whole.upperBound...]))
            return Episode(
                seriesTitle: series, season: Int(stem[seasonRange]), number: Int(stem[episodeRange]),
                title: rest.isEmpty ? nil : rest)
        }
        return nil
    }

    /// The episode a file's path describes: its name first (`parse(fileName:)`); else the
    /// folders fill in what the name leaves out — a code without a series ("Show/S01E02.mkv",
    /// "Show/Season 1/1x02 - Pilot.mkv"), or only an episode number inside a season folder
    /// ("Show/Season 2/03 - Title.mkv", "Show/S2/Episode 4.mkv").
    public static func parse(path: String) -> Episode? {
        let components = path.split(separator: "/").map(String.init)
        guard let name = components.last else { return nil }
        if let episode = parse(fileName: name) { return episode }
        let folders = Array(components.dropLast())
        guard let parent = folders.last else { return nil }
        let seasonFolder = season(ofFolder: parent)
        let seriesFolder = seasonFolder == nil ? parent : folders.dropLast().last
        guard let seriesFolder, case let series = tidy(seriesFolder), !series.isEmpty else { return nil }
        // A code with nothing before it: the folders name the series.
        let marker = "marquee-series-marker"
        if let coded = parse(fileName: "\(marker) \(name)"), coded.seriesTitle == marker {
            return Episode(seriesTitle: series, season: coded.season ?? seasonFolder, number: coded.number, title: coded.title)
        }
        // Just a number ("03 - Title", "Episode 4", "E05") in a season folder.
        guard let seasonFolder else { return nil }
        let stem = stem(of: name)
        let pattern = #"(?i)^(?:episode|ep|e)?[ ._-]*(\d{1,4})(?![0-9])(?:[ ._-]+(.*))?$"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: stem, range: NSRange(stem.startIndex..., in: stem)),
            let numberRange = Range(match.range(at: 1), in: stem)
        else { return nil }
        let title = Range(match.range(at: 2), in: stem).map { tidy(String(stem[$0])) }
        return Episode(seriesTitle: series, season: seasonFolder, number: Int(stem[numberRange]), title: title?.isEmpty == false ? title : nil)
    }

    /// The season number a folder's name gives ("Season 2", "Series 02", "S2", "Staffel 3"), if any.
    static func season(ofFolder name: String) -> Int? {
        let pattern = #"(?i)^(?:season|series|saison|staffel|temporada|s)[ ._-]*(\d{1,3})$"#
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: trimmed, range: NSRange(trimmed.startIndex..., in: trimmed)),
            let range = Range(match.range(at: 1), in: trimmed)
        else { return nil }
        return Int(trimmed[range])
    }

    /// A file name without its extension (an extension being a dot and up to five letters or digits).
    static func stem(of fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), fileName.distance(from: dot, to: fileName.endIndex) <= 6,
            fileName[fileName.index(after: dot)...].allSatisfy({ $0.isLetter || $0.isNumber })
        else { return fileName }
        return String(fileName[..<dot])
    }

    /// The episode container tags describe, given tags with lower-cased keys and the file's
    /// `title` tag as the episode title; `nil` without a series (show) name.
    public static func parse(tags: [String: String]) -> Episode? {
        func value(_ keys: String...) -> String? {
            for key in keys {
                if let text = tags[key]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty { return text }
            }
            return nil
        }
        func number(_ keys: String...) -> Int? {
            for key in keys {
                guard let text = tags[key]?.trimmingCharacters(in: .whitespaces) else { continue }
                // "3", "03", "3/10" (part of a set)
                let digits = text.split(separator: "/").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                if let value = Int(digits), value >= 0 { return value }
            }
            return nil
        }
        guard let series = value("show", "tvsh", "series", "series_title", "tv_show", "grouping_show") else { return nil }
        var season = number("season_number", "tvsn", "season", "part_number_season")
        var episode = number("episode_sort", "tves", "episode", "episode_number", "part_number")
        var title = value("title", "episode_title")
        // `tven`/`episode_id` is a production code ("S01E02") or an episode title.
        if let id = value("episode_id", "tven") {
            if let parsed = parse(fileName: "x \(id)") {
                season = season ?? parsed.season
                episode = episode ?? parsed.number
            } else if title == nil {
                title = id
            }
        }
        if title == series { title = nil }
        return Episode(seriesTitle: series, season: season, number: episode, title: title)
    }

    /// Separators and brackets trimmed, dots and underscores read as spaces.
    static func tidy(_ text: String) -> String {
        var words = text.replacingOccurrences(of: "_", with: " ")
        if !words.contains(" ") { words = words.replacingOccurrences(of: ".", with: " ") }
        let junk = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "-–—.:"))
        return words.trimmingCharacters(in: junk).replacingOccurrences(of: #"\s{2,}"#, with: " ", options: .regularExpression)
    }
}
