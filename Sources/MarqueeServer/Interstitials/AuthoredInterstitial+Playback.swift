import Foundation
import HLS
import Library
import Playback

/// How an authored interstitial (the library's record) plays and how it is served: as the
/// session's `InterstitialEvent` and as the HLS interstitial in the asset's playlists.
extension AuthoredInterstitial {
    /// The ID the event has in sessions and playlists (an HLS date range ID).
    var eventID: String { id }

    /// The HLS URL the interstitial plays (`X-ASSET-URI`): a library ad's multivariant playlist.
    var hlsAssetURI: String? {
        if let ad = content.assetID { return "/media/\(ad)/\(BundleLayout.multivariantPlaylist)" }
        return content.uri
    }

    /// The asset list Marquee serves for the event (`X-ASSET-LIST`), or the authored one.
    var servedAssetListURL: String? { content.assetList }

    /// The session's event: a library ad plays from its playback manifest; an HLS URL as given
    /// (a page that cannot play it reports the failure and the break is skipped); an asset
    /// list is resolved by the page when the break starts.
    var playbackEvent: InterstitialEvent {
        let length = duration ?? playoutLimit ?? 0
        let labelID = skipControl.map { _ in Interstitial.skipControlLabelID(for: "skip-\(id)") }
        var restricted: InterstitialRestrictions = []
        if restrictions.jump { restricted.insert(.constrainsSeekingForwardInPrimaryContent) }
        if restrictions.skip { restricted.insert(.requiresPlaybackAtPreferredRateForAdvancement) }
        return InterstitialEvent(
            id: eventID,
            time: cue == .none ? time : 0,
            url: content.assetID.map { "/api/assets/\($0)/manifest.json" } ?? content.uri ?? "",
            duration: length,
            resumptionOffset: cue == .none ? (resumptionOffset ?? length) : 0,
            restrictions: restricted,
            cue: cue == .pre ? .joinCue : cue == .post ? .leaveCue : .none,
            willPlayOnce: once,
            assetListURL: content.assetList,
            playoutLimit: playoutLimit,
            alignsStartWithPrimarySegmentBoundary: snap.out,
            alignsResumptionWithPrimarySegmentBoundary: snap.in,
            timelineOccupancy: timelineOccupies == .range ? .range : .singlePoint,
            supplementsPrimaryContent: timelineStyle == .primary,
            contentMayVary: contentMayVary,
            skipControl: skipControl.map {
                InterstitialSkipControl(offset: $0.offset, duration: $0.duration, labelID: labelID, labels: $0.labels ?? [:])
            })
    }

    /// The event as it is written into the asset's media playlists, at its primary time.
    func placed(primaryDuration: Double) -> PlacedInterstitial {
        PlacedInterstitial(
            time: timelineStart(primaryDuration: primaryDuration),
            interstitial: playbackEvent.hlsInterstitial(assetURI: hlsAssetURI))
    }

    /// The skip label's session data for the multivariant playlist, one per language.
    var skipLabelSessionData: [SessionData] {
        guard let labels = skipControl?.labels else { return [] }
        return labels.sorted { $0.key < $1.key }.map { SessionData(dataID: "skip-\(id)", value: $0.value, language: $0.key) }
    }
}
