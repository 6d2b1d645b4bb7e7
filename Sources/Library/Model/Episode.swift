import Foundation

/// Where an item sits in a series: the series title, season and episode numbers, and the
/// episode's own title — what the library groups by and what the player shows as
/// "S1 · E2 — Title".
public struct Episode: Codable, Sendable, Hashable {
    public var seriesTitle: String
    public var season: Int?
    public var number: Int?
    public var title: String?

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
