public import Foundation

/// EXT-X-DATERANGE: metadata attached to a span of wall-clock time (ad markers, SCTE-35,
/// interstitials). `segmentIndex` is the number of segments before the tag, so a writer can
/// put it back where it was.
public struct DateRange: Sendable, Hashable {
    /// `ID`: identifies the range; tags with the same ID describe the same range.
    public var id: String
    /// `CLASS`: the kind of range, whose semantics its client attributes follow (`com.apple.hls.interstitial`).
    public var classValue: String?
    /// `START-DATE`: when the range begins.
    public var startDate: PlaylistDate?
    /// `CUE`: when an interstitial plays relative to the primary content (`PRE`, `POST`, `ONCE`).
    public var cue: [String] = []
    /// `END-DATE`: when the range ends; with a `duration` too, it must be `startDate` plus that duration.
    public var endDate: PlaylistDate?
    /// `DURATION`: how long the range lasts, in seconds.
    public var duration: Double?
    /// `PLANNED-DURATION`: the expected length in seconds while the real one is not known yet.
    public var plannedDuration: Double?
    /// `END-ON-NEXT=YES`: the range ends where the next range of the same class starts.
    public var endOnNext = false
    /// `SCTE35-CMD`: a SCTE-35 splice command, as hexadecimal text.
    public var scte35Command: String?
    /// `SCTE35-OUT`: the SCTE-35 splice-out message, as hexadecimal text.
    public var scte35Out: String?
    /// `SCTE35-IN`: the SCTE-35 splice-in message, as hexadecimal text.
    public var scte35In: String?
    /// `X-` attributes, the interstitial ones included, in playlist order.
    public var clientAttributes: [Attribute] = []
    /// Other attributes the parser does not model, kept in order for writing.
    public var otherAttributes: [Attribute] = []
    /// How many segments come before the tag in the playlist, so that a writer puts it back there.
    public var segmentIndex: Int = 0

    /// A date range with only its `ID`.
    public init(id: String) { self.id = id }

    /// The `CLASS` of HLS Interstitials.
    public static let interstitialClass = "com.apple.hls.interstitial"
    /// Whether the range schedules an interstitial (its `CLASS` is `interstitialClass`).
    public var isInterstitial: Bool { classValue == Self.interstitialClass }

    /// The interstitial this date range schedules, when its class says it is one.
    public var interstitial: Interstitial? { isInterstitial ? Interstitial(self) : nil }
}

/// An HLS Interstitial (rfc8216bis Appendix D): an ad or other content played at a point of
/// the primary timeline, read from a date range's `X-` attributes.
public struct Interstitial: Sendable, Hashable {
    /// The date range's `ID`.
    public var id: String
    /// The date range's `START-DATE`: where on the primary timeline the interstitial is scheduled.
    public var startDate: Date?
    /// In seconds: `DURATION`, else `PLANNED-DURATION`, else `END-DATE` − `START-DATE`.
    public var duration: Double?
    /// `X-ASSET-URI`: the one asset to play (a multivariant playlist), as written.
    public var assetURI: String?
    /// `X-ASSET-LIST`: a JSON list of assets to play in turn, as written; a range has this or `assetURI`.
    public var assetList: String?
    /// `X-RESUME-OFFSET`: where the primary resumes, in seconds after the scheduled point.
    public var resumeOffset: Double?
    /// `X-PLAYOUT-LIMIT`: the longest the interstitial may play, in seconds.
    public var playoutLimit: Double?
    /// X-SNAP: OUT and/or IN.
    public var snap: [String]
    /// X-RESTRICT: SKIP and/or JUMP.
    public var restrict: [String]
    /// CUE (PRE, POST, ONCE), or the legacy X-CUE.
    public var cue: [String]
    /// `X-TIMELINE-OCCUPIES`: `POINT` or `RANGE`, how a player draws it on the primary's timeline.
    public var timelineOccupies: String?
    /// `X-TIMELINE-STYLE`: `HIGHLIGHT` or `PRIMARY`, whether it is shown apart from the primary content.
    public var timelineStyle: String?
    /// `X-CONTENT-MAY-VARY`: whether viewers may get different content; nil when absent (the specification's default is YES).
    public var contentMayVary: Bool?
    /// `X-SKIP-CONTROL-OFFSET`: seconds into the interstitial after which a skip button appears.
    public var skipControlOffset: Double?
    /// `X-SKIP-CONTROL-DURATION`: how long the skip button stays, in seconds.
    public var skipControlDuration: Double?
    /// `X-SKIP-CONTROL-LABEL-ID`: the ID of the skip button's localised label.
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
