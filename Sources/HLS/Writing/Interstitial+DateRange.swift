public import Foundation

extension Interstitial {
    /// An interstitial to write: every attribute of the HLS Interstitials date range, with
    /// `startDate` its place on the programme-date-time timeline.
    public init(
        id: String, startDate: Date, duration: Double? = nil, assetURI: String? = nil, assetList: String? = nil,
        resumeOffset: Double? = nil, playoutLimit: Double? = nil, snap: [String] = [], restrict: [String] = [],
        cue: [String] = [], timelineOccupies: String? = nil, timelineStyle: String? = nil, contentMayVary: Bool? = nil,
        skipControlOffset: Double? = nil, skipControlDuration: Double? = nil, skipControlLabelID: String? = nil
    ) {
        self.id = id
        self.startDate = startDate
        self.duration = duration
        self.assetURI = assetURI
        self.assetList = assetList
        self.resumeOffset = resumeOffset
        self.playoutLimit = playoutLimit
        self.snap = snap
        self.restrict = restrict
        self.cue = cue
        self.timelineOccupies = timelineOccupies
        self.timelineStyle = timelineStyle
        self.contentMayVary = contentMayVary
        self.skipControlOffset = skipControlOffset
        self.skipControlDuration = skipControlDuration
        self.skipControlLabelID = skipControlLabelID
    }

    /// The `EXT-X-DATERANGE` (`CLASS="com.apple.hls.interstitial"`) that schedules this
    /// interstitial, placed before segment `segmentIndex`. Reading it back gives this value.
    public func dateRange(segmentIndex: Int) -> DateRange {
        var range = DateRange(id: id)
        range.classValue = DateRange.interstitialClass
        range.startDate = startDate.map { PlaylistDate(text: ProgramDateTime.text(for: $0), date: $0) }
        range.cue = cue
        range.duration = duration
        range.segmentIndex = segmentIndex
        var a: [Attribute] = []
        func quoted(_ name: String, _ value: String?) { if let value { a.append(Attribute(name: name, value: .quoted(value))) } }
        func number(_ name: String, _ value: Double?) {
            if let value, value.isFinite { a.append(Attribute(name: name, value: .unquoted(PlaylistWriter.decimal(value)))) }
        }
        func list(_ name: String, _ values: [String]) { if !values.isEmpty { quoted(name, values.joined(separator: ",")) } }
        quoted("X-ASSET-URI", assetURI)
        quoted("X-ASSET-LIST", assetList)
        number("X-RESUME-OFFSET", resumeOffset)
        number("X-PLAYOUT-LIMIT", playoutLimit)
        list("X-SNAP", snap)
        list("X-RESTRICT", restrict)
        quoted("X-TIMELINE-OCCUPIES", timelineOccupies)
        quoted("X-TIMELINE-STYLE", timelineStyle)
        quoted("X-CONTENT-MAY-VARY", contentMayVary.map { $0 ? "YES" : "NO" })
        number("X-SKIP-CONTROL-OFFSET", skipControlOffset)
        number("X-SKIP-CONTROL-DURATION", skipControlDuration)
        quoted("X-SKIP-CONTROL-LABEL-ID", skipControlLabelID)
        range.clientAttributes = a
        return range
    }
}

/// `EXT-X-PROGRAM-DATE-TIME` text: ISO 8601 in UTC with milliseconds, as Apple's tools write it.
public enum ProgramDateTime {
    public static func text(for date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

/// An interstitial placed at a time on a media playlist's timeline (seconds from its first
/// segment), before it has a date: what a server knows about a break it authored.
public struct PlacedInterstitial: Sendable, Hashable {
    public var time: Double
    public var interstitial: Interstitial

    public init(time: Double, interstitial: Interstitial) {
        self.time = time
        self.interstitial = interstitial
    }
}

extension MediaPlaylist {
    /// Schedules interstitials into this playlist: its first segment gets an
    /// `EXT-X-PROGRAM-DATE-TIME` (`programDateTime`, unless it has one), and each interstitial
    /// one date range, dated on that timeline and placed before the segment it starts in.
    /// Interstitial date ranges the playlist already had are replaced.
    public mutating func scheduleInterstitials(_ placed: [PlacedInterstitial], programDateTime: Date) {
        guard !segments.isEmpty else { return }
        if segments[0].programDateTime == nil {
            segments[0].programDateTime = PlaylistDate(text: ProgramDateTime.text(for: programDateTime), date: programDateTime)
        }
        let anchor = segments[0].programDateTime!.date
        let starts = segmentStartTimes
        dateRanges.removeAll(where: \.isInterstitial)
        for item in placed {
            var interstitial = item.interstitial
            // Milliseconds, as the date's text has: reading it back gives the same time. A date
            // may lie outside the segments (a post-roll's); its tag goes by the nearest one.
            interstitial.startDate = Date(timeIntervalSince1970: ((anchor.timeIntervalSince1970 + item.time) * 1000).rounded() / 1000)
            let index = starts.lastIndex(where: { $0 <= min(max(item.time, 0), duration) }) ?? 0
            dateRanges.append(interstitial.dateRange(segmentIndex: index))
        }
    }
}
