/// What a viewer is told when the session turns an intent down: why, and for how long.
///
/// During an ad a refusal is rarely for good: the skip button appears at its offset, and seeks
/// and speed changes come back when the break ends. The session knows both from the break's
/// clock, so it says so ("Ads can be skipped in 3 s") and the page only shows the sentence.
public struct RefusalExplanation: Sendable, Hashable, Codable {
    /// The refusal's code, as the renderer protocol names it.
    public var reason: PlaybackRefusal
    /// Whole seconds (rounded up) until the refused action becomes possible: the skip button
    /// appears, or the ad ends; `nil` when no wait brings it (or the wait is not known).
    public var availableIn: Int?
    /// One sentence for the viewer, in the session's language.
    public var message: String
}

extension PlaybackSession {
    /// Why `refusal` happened and when what was asked becomes possible, from the break's clock.
    public func explanation(of refusal: PlaybackRefusal) -> RefusalExplanation {
        let wait = refusalWait(refusal)
        // Rounded up, as a countdown shows it, with a little slack for the clock's last report.
        let seconds = wait.map { max(1, Int(($0.seconds - 0.05).rounded(.up))) }
        return RefusalExplanation(reason: refusal, availableIn: seconds, message: sentence(refusal, wait: wait, seconds: seconds))
    }

    /// What the viewer waits for after `refusal`.
    enum RefusalWait {
        /// The break's skip button appears in this many seconds.
        case skipButton(Double)
        /// The ad (the event playing) ends in this many seconds.
        case adEnd(Double)

        var seconds: Double {
            switch self {
            case .skipButton(let seconds), .adEnd(let seconds): seconds
            }
        }
    }

    /// What ends the wait after `refusal`: nothing outside a break, or for other refusals.
    func refusalWait(_ refusal: PlaybackRefusal) -> RefusalWait? {
        guard let playout else { return nil }
        switch refusal {
        case .interstitialNotSkippable, .seekingRestrictedDuringInterstitial, .rateRestrictedDuringInterstitial:
            if let control = playout.event.skipControl, playout.clock < control.offset {
                return .skipButton(control.offset - playout.clock)
            }
            let length = playout.asset?.duration.map { playout.assetStart + $0 } ?? playout.event.playedDuration
            guard length > 0, length > playout.clock else { return nil }
            return .adEnd(length - playout.clock)
        default:
            return nil
        }
    }

    private func sentence(_ refusal: PlaybackRefusal, wait: RefusalWait?, seconds: Int?) -> String {
        let japanese = language == .japanese
        let later: String? =
            switch (wait, seconds) {
            case (.skipButton?, let s?): japanese ? "広告はあと\(s)秒でスキップできます。" : "Ads can be skipped in \(s) s."
            case (.adEnd?, let s?): japanese ? "広告はあと\(s)秒で終わります。" : "The ad ends in \(s) s."
            default: nil
            }
        switch refusal {
        case .interstitialNotSkippable where playout == nil:
            return japanese ? "再生中の広告はありません。" : "No ad is playing."
        case .interstitialNotSkippable:
            if case .skipButton? = wait, let later { return later }
            return (japanese ? "この広告はスキップできません。" : "This ad can’t be skipped.") + (later.map { japanese ? $0 : " " + $0 } ?? "")
        case .seekingRestrictedDuringInterstitial:
            return (japanese ? "この広告の間はシークできません。" : "Seeking is off during this ad.") + (later.map { japanese ? $0 : " " + $0 } ?? "")
        case .rateRestrictedDuringInterstitial:
            return (japanese ? "この広告の間は速度を変えられません。" : "The speed can’t change during this ad.")
                + (later.map { japanese ? $0 : " " + $0 } ?? "")
        case .noSubtitles:
            return japanese ? "このビデオには字幕がありません。" : "This video has no subtitles."
        case .noSpeedsOffered, .speedNotOffered:
            return japanese ? "この速度は選べません。" : "This speed isn’t offered."
        case .notReady:
            return japanese ? "まだ読み込み中です。" : "Still loading."
        default:
            return japanese ? "現在は利用できません。" : "Not available right now."
        }
    }
}
