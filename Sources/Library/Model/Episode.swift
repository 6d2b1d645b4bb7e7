import Foundation

/// Where an item sits in a series: the series title, season and episode numbers, and the
/// episode's own title — what the library groups by and what the player shows as
/// "S1 · E2 — Title".
public struct Episode: Codable, Sendable, Hashable {
    /// The series' title, which episodes are grouped by.
    public var seriesTitle: String
    /// The season number, when known.
    public var season: Int?
    /// The episode number within its season, when known.
    public var number: Int?
    /// The episode's own title, when it has one.
    public var title: String?

    /// An episode of `seriesTitle`.
    public init(seriesTitle: String, season: Int? = nil, number: Int? = nil, title: String? = nil) {
        self.seriesTitle = seriesTitle
        self.season = season
        self.number = number
        self.title = title
    }

    /// "S1 · E2 — Title", "S1 · E2", "E2 — Title" or just the title.
    public var label: String {
        var numbers: [String] = []
        if let season { numbers.append("S\(season)") }
        if let number { numbers.append("E\(number)") }
        let code = numbers.joined(separator: " · ")
        switch (code.isEmpty, title?.isEmpty ?? true) {
        case (false, false): return "\(code) — \(title!)"
        case (false, true): return code
        case (true, false): return title!
        case (true, true): return ""
        }
    }
}
