import Foundation
public import HLS
public import Playback

extension InterstitialEvent {
    /// The event an HLS interstitial date range schedules at `time` seconds into the primary.
    ///
    /// Follows the HLS Interstitials defaults: no `X-RESUME-OFFSET` resumes after the
    /// interstitial's duration (it replaces that much primary), no `X-CONTENT-MAY-VARY` means
    /// it may vary, no `X-TIMELINE-OCCUPIES` is a point. Skip labels come from the
    /// multivariant playlist's session data whose `DATA-ID` the label ID names (`labels`:
    /// every `EXT-X-SESSION-DATA` of the stream).
    public init(_ interstitial: Interstitial, time: Double, labels: [SessionData] = []) {
        let cues = Set(interstitial.cue.map { $0.uppercased() })
        let duration = interstitial.duration ?? interstitial.playoutLimit ?? 0
        var restrictions: InterstitialRestrictions = []
        if interstitial.restrict.contains("JUMP") { restrictions.insert(.constrainsSeekingForwardInPrimaryContent) }
        if interstitial.restrict.contains("SKIP") { restrictions.insert(.requiresPlaybackAtPreferredRateForAdvancement) }
        var skipControl: InterstitialSkipControl?
        if let offset = interstitial.skipControlOffset {
            var texts: [String: String] = [:]
            if let id = interstitial.skipControlLabelID {
                for data in labels where data.dataID == id {
                    if let value = data.value { texts[data.language ?? "und"] = value }
                }
            }
            skipControl = InterstitialSkipControl(
                offset: offset, duration: interstitial.skipControlDuration,
                labelID: interstitial.skipControlLabelID, labels: texts)
        }
        self.init(
            id: interstitial.id,
            time: time,
            url: interstitial.assetURI ?? "",
            duration: duration,
            resumptionOffset: interstitial.resumeOffset ?? duration,
            restrictions: restrictions,
            cue: cues.contains("PRE") ? .joinCue : cues.contains("POST") ? .leaveCue : .none,
            willPlayOnce: cues.contains("ONCE"),
            assetListURL: interstitial.assetList,
            playoutLimit: interstitial.playoutLimit,
            alignsStartWithPrimarySegmentBoundary: interstitial.snap.contains("OUT"),
            alignsResumptionWithPrimarySegmentBoundary: interstitial.snap.contains("IN"),
            timelineOccupancy: interstitial.timelineOccupies == "RANGE" ? .range : .singlePoint,
            supplementsPrimaryContent: interstitial.timelineStyle == "PRIMARY",
            contentMayVary: interstitial.contentMayVary ?? true,
            skipControl: skipControl)
    }

    /// The events a media playlist's interstitial date ranges schedule, in playlist order,
    /// timed on the playlist's programme-date-time timeline (those it cannot place are at 0).
    public static func events(in playlist: MediaPlaylist, labels: [SessionData] = []) -> [InterstitialEvent] {
        playlist.interstitials.compactMap(\.interstitial).map { interstitial in
            let time = interstitial.startDate.flatMap { playlist.playlistTime(of: $0) } ?? 0
            return InterstitialEvent(interstitial, time: max(time, 0), labels: labels)
        }
    }

    /// The HLS interstitial that schedules this event (the inverse of `init(_:time:labels:)`,
    /// except the date, which `MediaPlaylist.scheduleInterstitials` gives it).
    public func hlsInterstitial(assetURI: String?) -> Interstitial {
        var cues: [String] = []
        if cue == .joinCue { cues.append("PRE") }
        if cue == .leaveCue { cues.append("POST") }
        if willPlayOnce { cues.append("ONCE") }
        var restrict: [String] = []
        if restrictsSkipping { restrict.append("SKIP") }
        if restrictsJumping { restrict.append("JUMP") }
        var snap: [String] = []
        if alignsStartWithPrimarySegmentBoundary { snap.append("OUT") }
        if alignsResumptionWithPrimarySegmentBoundary { snap.append("IN") }
        var interstitial = Interstitial(
            id: id, startDate: .init(timeIntervalSince1970: 0), duration: duration > 0 ? duration : nil,
            assetURI: assetListURL == nil ? assetURI : nil, assetList: assetListURL,
            resumeOffset: resumptionOffset, playoutLimit: playoutLimit, snap: snap, restrict: restrict, cue: cues,
            timelineOccupies: timelineOccupancy == .range ? "RANGE" : "POINT",
            timelineStyle: supplementsPrimaryContent ? "PRIMARY" : "HIGHLIGHT",
            contentMayVary: contentMayVary,
            skipControlOffset: skipControl?.offset, skipControlDuration: skipControl?.duration,
            skipControlLabelID: skipControl?.labelID)
        interstitial.startDate = nil
        return interstitial
    }
}
