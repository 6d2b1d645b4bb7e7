/// The speed list a person typed into a player's address (`?speeds=0.5,1,2`), read leniently.
///
/// An address is something people edit by hand, so a value that is not an offerable speed
/// (not a number, zero, negative, above 16×) is left out and reported in `ignored` instead of
/// failing the player. An empty text asks for no speed menu. When every entry is ignored the
/// player keeps its usual list (`rates` is `nil`), as if the address had asked for nothing.
public struct RequestedSpeeds: Sendable, Equatable {
    /// The rates to offer, in the order typed (duplicates dropped); `nil` keeps the default list.
    public let rates: [Double]?
    /// The entries left out, as typed (trimmed).
    public let ignored: [String]

    public init(parsing text: String) {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
            .map(Self.trimmed)
        if entries.allSatisfy(\.isEmpty) {
            rates = []
            ignored = []
            return
        }
        var kept: [Double] = []
        var left: [String] = []
        for entry in entries where !entry.isEmpty {
            if let rate = Double(entry), PlaybackSpeed.isOfferable(rate) {
                if !kept.contains(rate) { kept.append(rate) }
            } else {
                left.append(entry)
            }
        }
        rates = kept.isEmpty ? nil : kept
        ignored = left
    }

    private static func trimmed(_ entry: Substring) -> String {
        var slice = entry
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }

    /// What to tell the viewer about the ignored entries, or `nil` when nothing was ignored.
    public func warning(in language: PlayerLanguage) -> String? {
        guard !ignored.isEmpty else { return nil }
        let bounds = PlaybackSpeed.formatRate(PlaybackSpeed.maximumRate)
        switch language {
        case .english:
            let list = ignored.map { "“\($0)”" }.joined(separator: ", ")
            let noun = ignored.count == 1 ? "speed" : "speeds"
            return "Ignored the playback \(noun) \(list) in the address: a speed is a number above 0 and at most \(bounds)."
        case .japanese:
            let list = ignored.map { "「\($0)」" }.joined(separator: "、")
            return "アドレスの再生速度\(list)は無視しました。速度は0より大きく\(bounds)以下の数値です。"
        }
    }
}
