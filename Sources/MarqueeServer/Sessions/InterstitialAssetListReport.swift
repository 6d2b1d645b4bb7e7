public import Playback

/// The page's `interstitial-asset-list` report: it resolved the asset list (`X-ASSET-LIST`) of
/// the event `interstitial` as the break approached, and names its `assets` (`uri` resolved
/// against the list's address, `duration` from the list). Checked here, so a session only ever
/// hears of a list of 1 to `maximumAssets` assets with addresses and finite durations; what the
/// session does with it is the session's rule (`PlaybackSession.nextInterstitialItem`).
struct InterstitialAssetListReport {
    struct Asset: Codable, Sendable, Hashable {
        var uri: String
        var duration: Double?
    }

    static let maximumAssets = 100
    static let maximumURILength = 4096

    var eventID: String
    var assets: [Asset]

    func parsed() throws -> RendererReport {
        typealias Invalid = InboundRendererMessage.Invalid
        guard !eventID.isEmpty, eventID.count <= 200 else { throw Invalid(reason: "interstitial-asset-list needs an event ID of 1 to 200 characters") }
        guard (1...Self.maximumAssets).contains(assets.count) else {
            throw Invalid(reason: "interstitial-asset-list needs 1 to \(Self.maximumAssets) assets; \(assets.count) given")
        }
        let checked = try assets.enumerated().map { index, asset in
            guard !asset.uri.isEmpty, asset.uri.utf8.count <= Self.maximumURILength else {
                throw Invalid(reason: "asset \(index + 1) of the list needs a \"uri\" of 1 to \(Self.maximumURILength) bytes")
            }
            if let duration = asset.duration, !(duration.isFinite && duration >= 0) {
                throw Invalid(reason: "asset \(index + 1) of the list has a \"duration\" that is not a number of seconds ≥ 0")
            }
            return InterstitialAsset(uri: asset.uri, duration: asset.duration)
        }
        return .interstitialAssetList(eventID: eventID, assets: checked)
    }
}

/// An asset of an event's asset list as the page sees it: in `play-interstitial-asset`
/// commands and in the state's `interstitialBreak` (`uri`, `duration`, `index` from 0).
public struct InterstitialAssetPayload: Codable, Sendable, Hashable {
    public var uri: String
    public var duration: Double?
    public var index: Int

    init(_ asset: InterstitialAsset, index: Int) {
        uri = asset.uri
        duration = asset.duration
        self.index = index
    }
}

/// What a break plays after the current ad, for the page to load while it plays: an event from
/// its start (`asset` null; it comes with `play-interstitial`) or a later asset of the playing
/// event's list (it comes with `play-interstitial-asset`).
public struct InterstitialNextPayload: Codable, Sendable, Hashable {
    public var interstitial: InterstitialEvent
    public var asset: InterstitialAssetPayload?
}

extension InterstitialBreakPosition {
    /// Adds the playing asset and what plays next to the position.
    mutating func describe(_ playout: InterstitialPlayout?, next: InterstitialItem?) {
        asset = playout.flatMap { playout in playout.asset.map { InterstitialAssetPayload($0, index: playout.assetIndex) } }
        self.next = next.map { item in
            InterstitialNextPayload(interstitial: item.event, asset: item.asset.map { InterstitialAssetPayload($0, index: item.index) })
        }
    }
}
