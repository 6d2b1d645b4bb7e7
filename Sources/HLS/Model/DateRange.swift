public import Foundation

/// EXT-X-DATERANGE: metadata attached to a span of wall-clock time (ad markers, SCTE-35,
/// interstitials). `segmentIndex` is the number of segments before the tag, so a writer can
/// put it back where it was.
public struct DateRange: Sendable, Hashable {
    public var id: String
    public var classValue: String?
    public var startDate: PlaylistDate?
    public var cue: [String] = []
    public var endDate: PlaylistDate?
    public var duration: Double?
    public var plannedDuration: Double?
    public var endOnNext = false
    public var scte35Command: String?
    public var scte35Out: String?
    public var scte35In: String?
    /// `X-` attributes, the interstitial ones included, in playlist order.
    public var clientAttributes: [Attribute] = []
    public var otherAttributes: [Attribute] = []
    public var segmentIndex: Int = 0

    public init(id: String) { self.id = id }

    public static let interstitialClass = "com.apple.hls.interstitial"
    public var isInterstitial: Bool { classValue == Self.interstitialClass }

    /// The interstitial this date range schedules, when its class says it is one.
    public var interstitial: Interstitial? { isInterstitial ? Interstitial(self) : nil }
}

/// An HLS Interstitial (rfc8216bis Appendix D): an ad or other content played at a point of
/// the primary timeline, read from a date range's `X-` attributes.
public struct Interstitial: Sendable, Hashable {
    public var id: String
    public var startDate: Date?
    public var duration: Double?
    public var assetURI: String?
    public var assetList: String?
    public var resumeOffset: Double?
    public var playoutLimit: Double?
    /// X-SNAP: OUT and/or IN.
    public var snap: [String]
    /// X-RESTRICT: SKIP and/or JUMP.
    public var restrict: [String]
    /// CUE (PRE, POST, ONCE), or the legacy X-CUE.
    public var cue: [String]
    public var timelineOccupies: String?
    public var timelineStyle: String?
    public var contentMayVary: Bool?
    public var skipControlOffset: Double?
    public var skipControlDuration: Double?
    public var skipControlLabelID: String?

    init(_ range: DateRange) {
        let a = range.clientAttributes
        func list(_ name: String) -> [String] {
            (a[named: name]?.text ?? "").split(separator: ",").map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
        }
        id = range.id
        startDate = range.startDate?.date
        duration =
            range.duration ?? range.plannedDuration
            ?? range.endDate.flatMap { end in
                range.startDate.map { end.date.timeIntervalSince($0.date) }
            }
        assetURI = a[named: "X-ASSET-URI"]?.text
        assetList = a[named: "X-ASSET-LIST"]?.text
        resumeOffset = a[named: "X-RESUME-OFFSET"]?.number
        playoutLimit = a[named: "X-PLAYOUT-LIMIT"]?.number
        snap = list("X-SNAP")
        restrict = list("X-RESTRICT")
        cue = range.cue.isEmpty ? list("X-CUE") : range.cue
        timelineOccupies = a[named: "X-TIMELINE-OCCUPIES"]?.text
        timelineStyle = a[named: "X-TIMELINE-STYLE"]?.text
        contentMayVary = a[named: "X-CONTENT-MAY-VARY"].map { $0.text == "YES" }
        skipControlOffset = a[named: "X-SKIP-CONTROL-OFFSET"]?.number
        skipControlDuration = a[named: "X-SKIP-CONTROL-DURATION"]?.number
        skipControlLabelID = a[named: "X-SKIP-CONTROL-LABEL-ID"]?.text
    }

    /// The interstitial attributes whose values are quoted strings, enumerated ones included
    /// (HLS Interstitials: X-ASSET-URI, X-ASSET-LIST, X-SNAP, X-RESTRICT, X-TIMELINE-OCCUPIES,
    /// X-TIMELINE-STYLE, X-CONTENT-MAY-VARY, X-SKIP-CONTROL-LABEL-ID).
    public static let quotedAttributes: Set<String> = [
        "X-ASSET-URI", "X-ASSET-LIST", "X-SNAP", "X-RESTRICT", "X-TIMELINE-OCCUPIES", "X-TIMELINE-STYLE",
        "X-CONTENT-MAY-VARY", "X-SKIP-CONTROL-LABEL-ID",
    ]

    /// Whether `label` is made only of the characters an `X-SKIP-CONTROL-LABEL-ID` may use:
    /// ASCII letters, "-" and "_".
    public static func isValidSkipControlLabelID(_ label: String) -> Bool {
        !label.isEmpty && label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "-" || $0 == "_" }
    }

    /// A skip-control label ID for any text (an event's id): letters and "-" stay, every other
    /// character becomes "_" and its code in letters, so distinct texts keep distinct IDs.
    public static func skipControlLabelID(for text: String) -> String {
        var label = ""
        for scalar in text.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "-" {
                label.unicodeScalars.append(scalar)
            } else {
                label +=
                    "_"
                    + String(scalar.value, radix: 16).map { digit in
                        // 0-9a-f written as the letters a-p.
                        let value = Int(String(digit), radix: 16)!
                        return Character(UnicodeScalar(UInt8(97 + value)))
                    } + "_"
            }
        }
        return label
    }
}
