/// One step of an arbitrary session history — an intent, a renderer report or a setting with
/// whatever numbers a hostile client could send — for the property tests and the fuzz target,
/// which drive the same table (`make fuzz`, `PlaybackSessionPropertyTests`).
public enum PlaybackSessionStep {
    /// How many kinds of step there are; `apply` takes any `kind` and wraps it.
    public static let kindCount = 31

    /// A session with every kind of interstitial (pre-roll, a restricted mid-roll at 8 s followed
    /// in the same break by a `once` event with a skip control and a playout limit, one with a
    /// resumption offset at 30 s, a post-roll) and audio and subtitle choices.
    public static func makeSession() -> PlaybackSession {
        PlaybackSession(
            id: "p", assetID: "a", metadata: DisplayMetadata(title: "Clip"),
            audioOptions: [
                MediaOption(id: "en", kind: .audio, name: "English", language: "en", isDefault: true),
                MediaOption(id: "fr", kind: .audio, name: "Français", language: "fr"),
            ],
            subtitleOptions: [MediaOption(id: "en", kind: .subtitles, name: "English", language: "en")],
            interstitials: [
                InterstitialEvent(id: "pre", time: 0, url: "/ad.json", duration: 5, cue: .joinCue),
                InterstitialEvent(
                    id: "mid", time: 8, url: "/ad.json", duration: 5,
                    restrictions: [.constrainsSeekingForwardInPrimaryContent, .requiresPlaybackAtPreferredRateForAdvancement]),
                InterstitialEvent(
                    id: "mid-2", time: 8, url: "/ad.json", duration: 5, resumptionOffset: 1,
                    restrictions: [.requiresPlaybackAtPreferredRateForAdvancement], willPlayOnce: true,
                    playoutLimit: 4, skipControl: InterstitialSkipControl(offset: 2, duration: 1.5)),
                InterstitialEvent(id: "late", time: 30, url: "/ad.json", duration: 5, resumptionOffset: 2),
                InterstitialEvent(id: "post", time: 0, url: "/ad.json", duration: 5, cue: .leaveCue),
            ])
    }

    /// Applies step `kind` (taken modulo `kindCount`) with the given numbers. Returns whether
    /// the step was a renderer failure, after which the session must stay failed.
    @discardableResult
    /// An item a report may name: the primary, or one of the session's events with an asset
    /// index (the one playing or not), chosen by `integer`.
    static func item(_ integer: Int) -> RenderedItem {
        let events = ["pre", "mid", "mid-2", "late", "post", "unknown"]
        let choice = Int(integer.magnitude % UInt(events.count + 1))
        guard choice < events.count else { return .primary }
        return .interstitial(eventID: events[choice], assetIndex: Int(integer.magnitude / 7 % 3))
    }

    public static func apply(_ kind: Int, _ number: Double, _ integer: Int, to session: inout PlaybackSession) -> Bool {
        switch ((kind % kindCount) + kindCount) % kindCount {
        case 0: _ = session.handle(.play)
        case 1: _ = session.handle(.pause)
        case 2: _ = session.handle(.togglePlayPause)
        case 3: _ = session.handle(.skip(by: number))
        case 4: _ = session.handle(.seek(to: number))
        case 5: _ = session.handle(.seekToFraction(number))
        case 6: _ = session.handle(.selectSpeed(rate: number))
        case 7: _ = session.handle(.stepSpeed(by: integer))
        case 8: _ = session.handle(.selectAudio(id: integer.isMultiple(of: 2) ? "fr" : "xx"))
        case 9: _ = session.handle(.selectSubtitles(id: integer.isMultiple(of: 3) ? nil : "en"))
        case 10: _ = session.handle(.toggleCaptions)
        case 11: _ = session.handle(.ready(duration: number))
        case 12: _ = session.handle(.time(number))
        case 13, 14: _ = session.handle(.time(number), about: item(integer))
        case 15: _ = session.handle(.playing)
        case 16: _ = session.handle(.stalled)
        case 17: _ = integer.isMultiple(of: 2) ? session.handle(.ended) : session.handle(.ended, about: item(integer))
        case 18:
            session.setSpeeds(
                integer.isMultiple(of: 2)
                    ? []
                    : [
                        PlaybackSpeed(rate: number, language: .english),
                        PlaybackSpeed(rate: 1, language: .japanese),
                    ])
        case 19: session.setLanguage(integer.isMultiple(of: 2) ? .english : .japanese)
        case 20: _ = session.handle(.skipInterval(direction: integer))
        case 21: _ = session.handle(.skipInterstitial)
        case 22: _ = session.handle(.interstitialFailed(message: "ad failed"))
        case 23:
            if integer.isMultiple(of: 2) { _ = session.handle(.autoplayBlocked) } else { session.setSkipInterval(number) }
        case 24: _ = session.cancelCurrentEvent(withResumptionOffset: number)
        case 25: _ = session.skipCurrentEvent()
        case 26:
            // Local events replace the stream's: sometimes none, sometimes a break of two at `number`.
            session.interstitialEvents =
                integer.isMultiple(of: 2)
                ? []
                : [
                    InterstitialEvent(
                        id: "local-a", time: number.isFinite ? number : 0, url: "/ad.json", duration: 3, resumptionOffset: 2,
                        restrictions: [.constrainsSeekingForwardInPrimaryContent]),
                    InterstitialEvent(
                        id: "local-b", time: number.isFinite ? number : 0, url: "/ad.json", duration: 3, resumptionOffset: 2,
                        willPlayOnce: true, playoutLimit: number),
                ]
        case 27:
            // X-SNAP: segment boundaries every `number` seconds (clamped), or local events that snap.
            if integer.isMultiple(of: 2) {
                let step = number.isFinite ? min(max(abs(number), 0.5), 10) : 6
                session.setPrimarySegmentBoundaries(stride(from: 0, through: 120, by: step).map { $0 })
            } else {
                session.interstitialEvents = [
                    InterstitialEvent(
                        id: "snap", time: number.isFinite ? number : 0, url: "/ad.json", duration: 3, resumptionOffset: 2.5,
                        alignsStartWithPrimarySegmentBoundary: true, alignsResumptionWithPrimarySegmentBoundary: integer.isMultiple(of: 3))
                ]
            }
        case 28:
            // Volume from a remote (any number) or reported by the page.
            switch integer % 3 {
            case 0: _ = session.handle(.setVolume(number))
            case 1, -1: _ = session.handle(.setMuted(integer.isMultiple(of: 2)))
            default: _ = session.handle(.volume(level: number, muted: integer < 0))
            }
        case 29:
            // An asset list resolved for one of the events (or an unknown one): 0 to 3 assets.
            let ids = ["pre", "mid", "mid-2", "late", "post", "local-a", "local-b", "snap", "list", "nope"]
            let id = ids[((integer % ids.count) + ids.count) % ids.count]
            if integer.isMultiple(of: 5) {
                session.interstitialEvents = [
                    InterstitialEvent(
                        id: "list", time: number.isFinite ? number : 0, url: "", duration: 4, assetListURL: "/list.json",
                        playoutLimit: integer.isMultiple(of: 3) ? 3 : nil)
                ]
            }
            let count = ((integer % 4) + 4) % 4
            let assets = (0..<count).map { InterstitialAsset(uri: "/a\($0).json", duration: $0 == 0 ? number : 2) }
            _ = session.handle(.interstitialAssetList(eventID: id, assets: assets))
        default:
            _ = session.handle(.failed(message: "decoder error"))
            return true
        }
        return false
    }
}
