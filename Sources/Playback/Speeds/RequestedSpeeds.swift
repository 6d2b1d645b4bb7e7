/// The speed list a person typed into a player's address (`?speeds=0.5,1,2`), read leniently.
///
/// An address is something people edit by hand, so a value that is not an offerable speed
/// (not a number, zero, negative, above 16×) is left out and reported in `ignored` instead of
/// failing the player. An empty text asks for no speed menu. When every entry is ignored the
/// player keeps its usual list (`rates` is `nil`), as if the address had asked for nothing.
/// A list that offers speeds always offers normal speed (1×) too, so a viewer who was sent
/// `?speeds=0.75,abc` can still go back to it: it goes before the first faster speed.
/// Only the first `PlaybackSpeed.maximumCount` speeds are kept; the rest are counted in
/// `dropped`, and the warning names at most a few ignored entries, so a huge address makes
/// no larger a session or answer than a short one.
public struct RequestedSpeeds: Sendable, Equatable {
    /// The rates to offer, in the order typed (duplicates dropped, 1× added when missing); `nil`
    /// keeps the default list.
    public let rates: [Double]?
    /// The entries left out, as typed (trimmed), at most `maximumReported` of them.
    public let ignored: [String]
    /// Whether entries were left unread because the list was already full.
    public let dropped: Bool

    /// The most ignored entries kept for the warning.
    static let maximumReported = 8

    public init(parsing text: String) {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
            .map(Self.trimmed)
        if entries.allSatisfy(\.isEmpty) {
            rates = []
            ignored = []
            dropped = false
            return
        }
        var kept: [Double] = []
        var left: [String] = []
        var full = false
        for entry in entries where !entry.isEmpty {
            if kept.count == PlaybackSpeed.maximumCount {
                full = true
                break
            }
            if let rate = Double(entry), PlaybackSpeed.isOfferable(rate) {
                if !kept.contains(rate) { kept.append(rate) }
            } else if left.count < Self.maximumReported {
                left.append(String(entry.prefix(32)))
            }
        }
        if !kept.isEmpty, !kept.contains(1) {
            if kept.count == PlaybackSpeed.maximumCount {
                kept.removeLast()
                full = true
            }
            kept.insert(1, at: kept.firstIndex { $0 > 1 } ?? kept.endIndex)
        }
        rates = kept.isEmpty ? nil : kept
        ignored = left
        dropped = full
    }

    private static func trimmed(_ entry: Substring) -> String {
        var slice = entry
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }

    /// What to tell the viewer about the ignored entries, or `nil` when nothing was ignored.
    public func warning(in language: PlayerLanguage) -> String? {
        guard !ignored.isEmpty || dropped else { return nil }
        let bounds = PlaybackSpeed.formatRate(PlaybackSpeed.maximumRate)
        let most = PlaybackSpeed.maximumCount
        switch language {
        case .english:
            let list = ignored.map { "“\($0)”" }.joined(separator: ", ")
            let noun = ignored.count == 1 ? "speed" : "speeds"
            let bad = ignored.isEmpty ? nil : "Ignored the playback \(noun) \(list) in the address: a speed is a number above 0 and at most \(bounds)."
            let full = dropped ? "Kept the first \(most) speeds in the address: a speed menu offers at most \(most)." : nil
            return [bad, full].compactMap { $0 }.joined(separator: " ")
        case .japanese:
            let list = ignored.map { "「\($0)」" }.joined(separator: "、")
            let bad = ignored.isEmpty ? nil : "アドレスの再生速度\(list)は無視しました。速度は0より大きく\(bounds)以下の数値です。"
            let full = dropped ? "アドレスの最初の\(most)個の速度だけを使います。速度メニューは\(most)個までです。" : nil
            return [bad, full].compactMap { $0 }.joined()
        }
    }
}
