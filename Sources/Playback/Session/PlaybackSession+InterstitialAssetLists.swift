/// Asset lists (`X-ASSET-LIST`): the renderer resolves an event's list as its break approaches
/// and reports the assets; the session then plays each of them, in order, as ads of the break.
///
/// The session stays the authority on what plays: a list reported ahead of its break waits
/// here until the break starts (and is used for that break only, so a break that plays again
/// is resolved again, as `X-CONTENT-MAY-VARY` allows); a list reported during its break
/// counts at once in "Ad N of M". Reports for events the session does not know, or that name
/// no asset list, are ignored.
extension PlaybackSession {
    /// What the break plays after the current ad: the next asset of the playing event's asset
    /// list, or the break's next event; nil when the primary resumes next or no break plays.
    /// A renderer loads it while the current ad plays, so the switch shows no gap.
    public var nextInterstitialItem: InterstitialItem? { playout?.next }

    /// Takes a resolved asset list for the event `eventID`.
    mutating func takeAssetList(_ assets: [InterstitialAsset], for eventID: String) {
        guard !assets.isEmpty else { return }
        if case .interstitial(var playout, let activity) = phase,
            let event = ([playout.event] + playout.upNext).first(where: { $0.id == eventID })
        {
            guard event.assetListURL != nil else { return }
            playout.assetLists[eventID] = assets
            phase = .interstitial(playout, activity: activity)
            return
        }
        let known = Set(schedule.events.filter { $0.assetListURL != nil }.map(\.id))
        guard known.contains(eventID) else { return }
        pendingAssetLists = pendingAssetLists.filter { known.contains($0.key) }
        pendingAssetLists[eventID] = assets
    }

    /// The lists resolved ahead for `events` (a break starting), which leave the waiting room.
    mutating func takePendingAssetLists(of events: [InterstitialEvent]) -> [String: [InterstitialAsset]] {
        var lists: [String: [InterstitialAsset]] = [:]
        for event in events {
            if let assets = pendingAssetLists.removeValue(forKey: event.id), event.assetListURL != nil { lists[event.id] = assets }
        }
        return lists
    }
}
