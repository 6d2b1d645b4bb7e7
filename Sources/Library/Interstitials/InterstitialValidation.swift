import Foundation

/// Why an authored interstitial cannot be stored, in words a person can act on.
public enum InterstitialValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value that is out of range or contradicts another.
    case invalid(String)
    /// The content names a library asset that does not exist (or is the primary itself).
    case unknownAsset(String)
    /// The break overlaps another one.
    case overlapping(String)
    /// The break does not fit this asset as it is now: past its end, before it has a length,
    /// or one more than an asset may have (the asset's state, not the request's shape).
    case doesNotFit(String)
    /// No event with this ID on the asset.
    case notFound(String)

    public var description: String {
        switch self {
        case .invalid(let message), .overlapping(let message), .doesNotFit(let message): message
        case .unknownAsset(let id): "No asset with id \(id) to play in the break"
        case .notFound(let id): "No interstitial event with id \(id) on this asset"
        }
    }
}

/// The rules an authored interstitial must keep before the library stores it: a finite time
/// inside the primary, exactly one kind of content, content that exists, sensible durations,
/// a playout limit no shorter than the skip button's offset, and no overlap with another break.
public enum InterstitialValidation {
    /// At most this many events per asset.
    public static let maximumEvents = 100
    static let maximumLabelLength = 80

    /// Checks `event` for `primary` beside the asset's `others` (the event itself left out) and
    /// fills in what the library knows (a library ad's duration). `ad` is the content asset,
    /// looked up by the caller (`nil` when none or not found).
    public static func validated(
        _ event: AuthoredInterstitial, primary: Asset, ad: Asset?,
        others: [AuthoredInterstitial]
    ) throws(InterstitialValidationError) -> AuthoredInterstitial {
        var event = event
        func invalid(_ message: String) -> InterstitialValidationError { .invalid(message) }
        func finite(_ value: Double?, _ name: String, positive: Bool = false) throws(InterstitialValidationError) {
            guard let value else { return }
            guard value.isFinite, positive ? value > 0 : value >= 0 else {
                throw invalid("\"\(name)\" must be a \(positive ? "positive" : "non-negative") number of seconds, not \(value)")
            }
        }
        if others.count >= maximumEvents { throw .doesNotFit("An asset can have at most \(maximumEvents) interstitial events") }

        // What plays.
        let kinds = [event.content.assetID, event.content.uri, event.content.assetList].compactMap { $0 }
        guard kinds.count == 1 else {
            throw invalid("\"content\" needs exactly one of \"assetID\", \"uri\" and \"assetList\"; \(kinds.count) given")
        }
        if let id = event.content.assetID {
            guard let ad, ad.id == id, ad.deletedAt == nil else { throw .unknownAsset(id) }
            if id == primary.id { throw invalid("An asset cannot play itself as an interstitial") }
            if event.duration == nil { event.duration = ad.duration }
        }
        for (name, url) in [("uri", event.content.uri), ("assetList", event.content.assetList)] {
            guard let url else { continue }
            guard HTTPAddress.url(url) != nil || HTTPAddress.isPath(url) else {
                throw invalid("\"content.\(name)\" must be an http(s) URL or a path starting with /, not \(url.prefix(100))")
            }
        }

        // When.
        try finite(event.time, "time")
        try finite(event.duration, "duration", positive: true)
        try finite(event.resumptionOffset, "resumptionOffset")
        try finite(event.playoutLimit, "playoutLimit", positive: true)
        if event.duration == nil, event.playoutLimit == nil {
            throw invalid("Give a \"duration\" (or a \"playoutLimit\") for content that is not a library asset")
        }
        guard let length = primary.duration, length > 0 else {
            throw .doesNotFit("The asset \(primary.id) has no duration yet (it is still being ingested); add breaks once it is ready")
        }
        if event.cue != .none { event.time = 0 }
        if event.cue == .none {
            guard event.time < length else {
                throw .doesNotFit("A break at \(seconds(event.time)) is past the end of the asset (\(seconds(length)))")
            }
            if event.time + event.primarySpan > length + 0.001 {
                throw .doesNotFit(
                    "The break at \(seconds(event.time)) covers \(seconds(event.primarySpan)) of the asset, past its end (\(seconds(length)))")
            }
        }

        // The skip button.
        if let skip = event.skipControl {
            try finite(skip.offset, "skipControl.offset")
            try finite(skip.duration, "skipControl.duration", positive: true)
            if let limit = event.playoutLimit, limit < skip.offset {
                throw invalid("The playout limit (\(seconds(limit))) is shorter than the skip button's offset (\(seconds(skip.offset)))")
            }
            if let played = event.playedDuration, skip.offset >= played {
                throw invalid("The skip button would appear at \(seconds(skip.offset)), after the break ends (\(seconds(played)))")
            }
            for (language, label) in skip.labels ?? [:] {
                guard !language.isEmpty, language.count <= 16, language.allSatisfy({ $0.isLetter || $0 == "-" }) else {
                    throw invalid("\"\(language.prefix(20))\" is not a language code for a skip label")
                }
                guard !label.trimmingCharacters(in: .whitespaces).isEmpty, label.count <= maximumLabelLength else {
                    throw invalid("The \(language) skip label must have 1 to \(maximumLabelLength) characters")
                }
            }
        }

        // No overlap with the asset's other breaks (events at the same time form one break).
        if event.cue == .none {
            for other in others where other.cue == .none && other.time != event.time {
                let (first, second) = other.time < event.time ? (other, event) : (event, other)
                if first.time + first.primarySpan > second.time + 0.001 {
                    throw .overlapping(
                        "The break at \(seconds(event.time)) overlaps the break at \(seconds(other.time)) (id \(other.id)), "
                            + "which covers the asset until \(seconds(first.time + first.primarySpan))")
                }
            }
        }
        return event
    }

    static func seconds(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e9 else { return "\(value) s" }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}
