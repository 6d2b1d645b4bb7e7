/// The rules a session's state keeps whatever intents and reports it is given, checked by the
/// property tests and the `PlaybackSession` fuzz target (`make fuzz`).
extension PlaybackSession {
    /// Every rule the current state breaks, in words; empty when the state is sound.
    public var invariantViolations: [String] {
        var broken: [String] = []
        if let duration {
            if !duration.isFinite || duration < 0 { broken.append("duration \(duration) is not a finite, non-negative number") }
            if !(currentTime >= 0 && currentTime <= duration) { broken.append("currentTime \(currentTime) is outside 0...\(duration)") }
        } else if !(currentTime >= 0 && currentTime.isFinite) {
            broken.append("currentTime \(currentTime) before the item is ready")
        }
        if !(interstitialTime >= 0 && interstitialTime.isFinite) { broken.append("interstitialTime \(interstitialTime)") }
        if let selectedSpeed, !speeds.contains(selectedSpeed) { broken.append("selected speed \(selectedSpeed.rate) is not offered") }
        if !speeds.isEmpty, selectedSpeed == nil { broken.append("speeds are offered but none is selected") }
        if !preferredRate.isFinite || preferredRate <= 0 { broken.append("preferred rate \(preferredRate)") }
        if let boundary = nextBoundary, !boundary.isFinite { broken.append("boundary \(boundary)") }
        if let id = selectedAudioID, !audioOptions.contains(where: { $0.id == id }) { broken.append("audio \(id) is not an option") }
        if let id = selectedSubtitleID, !subtitleOptions.contains(where: { $0.id == id }) { broken.append("subtitles \(id) are not an option") }
        if activeInterstitial != nil, duration == nil { broken.append("an interstitial plays before the item is ready") }
        if !(0...1).contains(volume) { broken.append("volume \(volume) outside 0...1") }
        if !(1...300).contains(skipInterval) { broken.append("skip interval \(skipInterval) outside 1...300 s") }
        let allowed = permissions
        if allowed.canSkipInterstitial, activeInterstitial == nil { broken.append("a skip is offered with no interstitial playing") }
        if allowed.canChangeRate, speeds.isEmpty { broken.append("a speed change is offered with no speeds") }
        if status == .failed, allowed.canSeek || allowed.canPlayPause { broken.append("a failed session still offers controls") }
        if let playout {
            // Each event to come counts at least one ad; the playing event's later assets count too.
            if !(1...playout.count).contains(playout.position) || playout.count - playout.position < playout.upNext.count {
                broken.append("break position \(playout.position) of \(playout.count) with \(playout.upNext.count) to come")
            }
            if !playout.resumeAt.isFinite { broken.append("a break resumes at \(playout.resumeAt)") }
            if !(playout.assetStart >= 0 && playout.assetStart <= playout.clock) {
                broken.append("the playing asset started at \(playout.assetStart) s of an event clock at \(playout.clock)")
            }
        }
        if let boundary = nextBoundary, boundary <= currentTime { broken.append("boundary \(boundary) is not ahead of \(currentTime)") }
        if pendingInterstitialNotifications.count > Self.notificationLimit {
            broken.append("\(pendingInterstitialNotifications.count) unread interstitial notifications")
        }
        return broken
    }
}
