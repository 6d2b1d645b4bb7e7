/// Something a viewer asks a player to do: a button, a gesture, a key, a remote's message.
///
/// Intents go to the `PlaybackSession`, which accepts or refuses them by its rules and
/// answers with the `RendererCommand`s that carry them out.
public enum PlaybackIntent: Sendable, Hashable {
    case play
    case pause
    case togglePlayPause
    /// Move the playhead by a signed number of seconds (the ±10 s buttons, J/L, arrows).
    case skip(by: Double)
    /// Move the playhead to a time (timeline drag, scrub release, number keys).
    case seek(to: Double)
    /// Jump to a fraction of the duration, 0...1 (the 0–9 keys).
    case seekToFraction(Double)
    /// Choose the speed with this rate from the player's list.
    case selectSpeed(rate: Double)
    /// Step to the next faster (+1) or slower (−1) speed in the list (the > and < keys).
    case stepSpeed(by: Int)
    case selectAudio(id: String)
    /// Choose a subtitle rendition, or `nil` to turn subtitles off.
    case selectSubtitles(id: String?)
    /// Turn captions on (the last or best-matching rendition) or off.
    case toggleCaptions
    /// Move by the player's skip interval, back (−1) or forward (+1): the ± buttons, J/L, arrows.
    case skipInterval(direction: Int)
    /// End the active interstitial now and resume the primary (the break's skip button),
    /// as `AVPlayerInterstitialEventController.skipCurrentEvent()`.
    case skipInterstitial
    /// Set the renderer's volume, 0...1 (a remote's volume slider); a level above 0 unmutes.
    case setVolume(Double)
    /// Mute or unmute the renderer, keeping its level (a remote's mute button).
    case setMuted(Bool)
    /// Play or dismiss the Up Next offer shown at the end of the item.
    case upNext(UpNextChoice)
}

/// Why a session turned an intent down, so the page can undo its local feedback and say so.
public enum PlaybackRefusal: String, Sendable, Hashable, Codable, Error {
    case notReady = "not-ready"
    case seekingRestrictedDuringInterstitial = "seeking-restricted-during-interstitial"
    case rateRestrictedDuringInterstitial = "rate-restricted-during-interstitial"
    case speedNotOffered = "speed-not-offered"
    case noSpeedsOffered = "no-speeds-offered"
    case unknownRendition = "unknown-rendition"
    case noSubtitles = "no-subtitles"
    case failed = "failed"
    /// No interstitial is playing, or the one playing may not be skipped.
    case interstitialNotSkippable = "interstitial-not-skippable"
    /// A time, offset or fraction that is not a finite number.
    case invalidValue = "invalid-value"
    /// Nothing is offered to play next (the item has not ended, or nothing follows it).
    case noUpNext = "no-up-next"
}
