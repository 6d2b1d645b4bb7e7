import Foundation
public import Playback

/// The renderer WebSocket protocol, version 1: JSON text frames, each with `"v": 1` and a
/// `"type"`. See docs/renderer-protocol.md for the full description and examples.
enum RendererProtocol {
    static let version = 1
}

/// Every name the renderer protocol uses, in one place. The page's copy is
/// `Public/js/player/renderer-vocabulary.js`; a test checks the two lists agree.
enum RendererVocabulary {
    enum Intent: String, CaseIterable {
        case play, pause
        case togglePlayPause = "toggle-play-pause"
        case skip
        case skipInterval = "skip-interval"
        case skipInterstitial = "skip-interstitial"
        case seek
        case seekToFraction = "seek-to-fraction"
        case selectSpeed = "select-speed"
        case stepSpeed = "step-speed"
        case selectAudio = "select-audio"
        case selectSubtitles = "select-subtitles"
        case toggleCaptions = "toggle-captions"
        case setVolume = "set-volume"
        case setMuted = "set-muted"
        case upNext = "up-next"
    }

    enum Report: String, CaseIterable {
        case ready, time, playing, stalled, ended, failed
        case interstitialFailed = "interstitial-failed"
        case interstitialAssetList = "interstitial-asset-list"
        case autoplayBlocked = "autoplay-blocked"
        case volume
    }

    enum Command: String, CaseIterable {
        case play, pause, seek
        case playInterstitial = "play-interstitial"
        case playInterstitialAsset = "play-interstitial-asset"
        case resumePrimary = "resume-primary"
        case selectAudio = "select-audio"
        case selectSubtitles = "select-subtitles"
        case setVolume = "set-volume"
    }
}

/// A frame the page sends: an intent (with an id the answer refers to) or a report.
struct InboundRendererMessage: Decodable {
    var v: Int
    var type: String
    var id: Int?
    var intent: String?
    var report: String?
    var seconds: Double?
    var time: Double?
    var fraction: Double?
    var rate: Double?
    var step: Int?
    var rendition: String?
    var duration: Double?
    var message: String?
    /// For `skip-interval`: back (−1) or forward (+1).
    var direction: Int?
    /// For `set-volume` and the `volume` report: the level, 0...1.
    var volume: Double?
    /// For `set-muted` and the `volume` report.
    var muted: Bool?
    /// For `up-next`: "play" or "dismiss".
    var choice: String?
    /// For `interstitial-asset-list`: the event's ID and the assets its list names. For other
    /// reports with `item` "interstitial": the event the report is about.
    var interstitial: String?
    var assets: [InterstitialAssetListReport.Asset]?
    /// What a report is about: "primary" or "interstitial" (then `interstitial` and `asset`
    /// name it). Absent: whatever plays.
    var item: String?
    /// For `item` "interstitial": the index of the asset in the event's asset list (0 without one).
    var asset: Int?

    enum Parsed {
        case intent(id: Int?, PlaybackIntent)
        case report(RendererReport, about: RenderedItem?)
    }

    struct Invalid: Error {
        var reason: String
    }

    func parsed() throws -> Parsed {
        guard v == RendererProtocol.version else { throw Invalid(reason: "unsupported protocol version \(v); this server speaks 1") }
        switch type {
        case "intent":
            let name = try need(self.intent, "intent")
            guard let known = RendererVocabulary.Intent(rawValue: name) else { throw Invalid(reason: "unknown intent \"\(name)\"") }
            let intent: PlaybackIntent
            switch known {
            case .play: intent = .play
            case .pause: intent = .pause
            case .togglePlayPause: intent = .togglePlayPause
            case .skip: intent = .skip(by: try need(seconds, "seconds"))
            case .skipInterval: intent = .skipInterval(direction: try need(direction, "direction"))
            case .skipInterstitial: intent = .skipInterstitial
            case .seek: intent = .seek(to: try need(time, "time"))
            case .seekToFraction: intent = .seekToFraction(try need(fraction, "fraction"))
            case .selectSpeed: intent = .selectSpeed(rate: try need(rate, "rate"))
            case .stepSpeed: intent = .stepSpeed(by: try need(step, "step"))
            case .selectAudio: intent = .selectAudio(id: try need(rendition, "rendition"))
            case .selectSubtitles: intent = .selectSubtitles(id: rendition)
            case .toggleCaptions: intent = .toggleCaptions
            case .setVolume: intent = .setVolume(try need(volume, "volume"))
            case .setMuted: intent = .setMuted(try need(muted, "muted"))
            case .upNext:
                let name = try need(choice, "choice")
                guard let known = UpNextChoice(rawValue: name) else { throw Invalid(reason: "\"choice\" must be play or dismiss, not \"\(name.prefix(64))\"") }
                intent = .upNext(known)
            }
            return .intent(id: id, intent)
        case "report":
            let name = try need(report, "report")
            guard let known = RendererVocabulary.Report(rawValue: name) else { throw Invalid(reason: "unknown report \"\(name)\"") }
            return .report(try parsedReport(known), about: try reportedItem())
        default:
            throw Invalid(reason: "unknown message type \"\(type)\"")
        }
    }

    /// `value`, or a refusal naming the field this message needs.
    private func need<T>(_ value: T?, _ name: String) throws -> T {
        guard let value else { throw Invalid(reason: "\(type) \(intent ?? report ?? "") needs \"\(name)\"") }
        return value
    }

    /// The item a report names (`item`, with `interstitial` and `asset`), or nil when it names none.
    private func reportedItem() throws -> RenderedItem? {
        switch item {
        case nil: return nil
        case "primary": return .primary
        case "interstitial":
            guard let interstitial, !interstitial.isEmpty else { throw Invalid(reason: "a report about an interstitial needs \"interstitial\" (its event ID)") }
            let index = asset ?? 0
            guard index >= 0 else { throw Invalid(reason: "\"asset\" must be 0 or more, not \(index)") }
            return .interstitial(eventID: interstitial, assetIndex: index)
        case let other?: throw Invalid(reason: "unknown item \"\(other)\" (expected \"primary\" or \"interstitial\")")
        }
    }

    private func parsedReport(_ known: RendererVocabulary.Report) throws -> RendererReport {
        switch known {
        case .ready: return .ready(duration: try need(duration, "duration"))
        case .time: return .time(try need(time, "time"))
        case .playing: return .playing
        case .stalled: return .stalled
        case .ended: return .ended
        case .failed: return .failed(message: String((message ?? "The media element failed").prefix(500)))
        case .interstitialFailed: return .interstitialFailed(message: String((message ?? "The interstitial failed").prefix(500)))
        case .autoplayBlocked: return .autoplayBlocked
        case .volume: return .volume(level: try need(volume, "volume"), muted: muted ?? false)
        case .interstitialAssetList:
            let report = try InterstitialAssetListReport(eventID: need(interstitial, "interstitial"), assets: need(assets, "assets"))
            return try report.parsed()
        }
    }
}

/// A renderer command as JSON: `{"command": "play", "rate": 1.5}` and so on.
struct CommandPayload: Codable, Sendable, Hashable {
    var command: String
    var rate: Double?
    var time: Double?
    var rendition: String?
    var interstitial: InterstitialEvent?
    var volume: Double?
    var muted: Bool?
    /// For `play-interstitial-asset`: the asset of the event's list to play (`uri`, `duration`, `index`).
    var asset: InterstitialAssetPayload?

    init(_ command: RendererCommand) {
        switch command {
        case .play(let rate):
            self.command = RendererVocabulary.Command.play.rawValue
            self.rate = rate
        case .pause: self.command = RendererVocabulary.Command.pause.rawValue
        case .seek(let time):
            self.command = RendererVocabulary.Command.seek.rawValue
            self.time = time
        case .playInterstitial(let event, let rate):
            self.command = RendererVocabulary.Command.playInterstitial.rawValue
            interstitial = event
            self.rate = rate
        case .playInterstitialAsset(let event, let asset, let index, let rate):
            self.command = RendererVocabulary.Command.playInterstitialAsset.rawValue
            interstitial = event
            self.asset = InterstitialAssetPayload(asset, index: index)
            self.rate = rate
        case .resumePrimary(let time, let rate):
            self.command = RendererVocabulary.Command.resumePrimary.rawValue
            self.time = time
            self.rate = rate
        case .selectAudio(let id):
            self.command = RendererVocabulary.Command.selectAudio.rawValue
            rendition = id
        case .selectSubtitles(let id):
            self.command = RendererVocabulary.Command.selectSubtitles.rawValue
            rendition = id
        case .setVolume(let level, let muted):
            self.command = RendererVocabulary.Command.setVolume.rawValue
            volume = level
            self.muted = muted
        }
    }
}

/// The session as the page and the API see it.
public struct SessionSnapshot: Codable, Sendable, Hashable {
    /// A speed the menu offers, copied from the session's `PlaybackSpeed`.
    public struct Speed: Codable, Sendable, Hashable {
        /// The rate the media plays at (1 is normal speed, 2 twice as fast).
        public var rate: Double
        /// The long name in the session's language ("Double speed"), for a menu item or VoiceOver.
        public var localizedName: String
        /// The short label ("2×"), for a compact speed button.
        public var localizedNumericName: String
    }

    /// The session's ID, as in `/api/sessions/{id}` and the renderer and remote WebSocket paths.
    public var id: String
    /// The library asset this session plays.
    public var assetID: String
    /// Where the page fetches the playback manifest: `/api/assets/{assetID}/manifest.json`.
    public var manifestURL: String
    /// The player's language tag, `en` or `ja`, for the page's own labels.
    public var language: String
    /// Where playback stands: `loading`, `paused`, `playing`, `waiting`, `ended` or `failed`.
    public var status: String
    /// Whether the viewer wants it to play; it stays true while `status` is `waiting` for data,
    /// so a remote's play/pause button shows pause then too.
    public var desiresPlayback: Bool
    /// Seconds into the primary item, as last reported by the renderer.
    public var currentTime: Double
    /// The item's length in seconds; `nil` until the renderer reports `ready`.
    public var duration: Double?
    /// The rate playback runs at now (0 while paused or waiting).
    public var rate: Double
    /// The speeds the speed menu offers; empty hides the menu.
    public var speeds: [Speed]
    /// The chosen speed; `nil` only when no speeds are offered (playback is then at 1×).
    public var selectedSpeed: Speed?
    /// The audio renditions the audio menu offers.
    public var audio: [MediaOption]
    /// The subtitle renditions the captions menu offers.
    public var subtitles: [MediaOption]
    /// The `id` of the selected entry of `audio`; `nil` when the item has no choice of audio.
    public var selectedAudio: String?
    /// The `id` of the selected entry of `subtitles`; `nil` when captions are off.
    public var selectedSubtitles: String?
    /// The TV page's volume, 0...1, and whether it is muted (remotes show and change these).
    public var volume: Double
    /// Whether the TV page is muted; `volume` keeps the level to return to.
    public var muted: Bool
    /// Where the breaks sit on the primary timeline, for marks on the scrubber.
    public var interstitials: [InterstitialTimeRange]
    /// The event whose break plays now; `nil` while the primary item plays.
    public var activeInterstitial: InterstitialEvent?
    /// The primary time at which the renderer holds playback and reports (the next break).
    public var boundary: Double?
    /// The first event of the next break, for the page to load ahead of its boundary.
    public var upcomingInterstitial: InterstitialEvent?
    /// Why playback failed, while `status` is `failed`.
    public var failureMessage: String?
    /// What the page may offer now (seek, speed, skip a break) and the skip interval: the
    /// session decides, the page draws.
    public var permissions: PlaybackSession.Permissions
    /// The browser refused to start playback by itself; the page shows its play button.
    public var autoplayBlocked: Bool
    /// Why the last break was skipped without playing.
    public var interstitialFailure: String?
    /// Where the playing event sits in its break ("Ad 1 of 2"), while a break plays.
    public var interstitialBreak: InterstitialBreakPosition?
    /// What to show about the item (title, subtitle, description, artwork, episode), with the
    /// library's metadata overrides applied.
    public var metadata: DisplayMetadata
    /// Whether the page may analyse a paused frame for text (Live Text).
    public var allowsVideoFrameAnalysis: Bool?
    /// What plays after this item, once it has ended (absent before): the page's card, the
    /// remote's "Play next" and the Now Playing activity all read it here.
    public var upNext: UpNextSnapshot?
    /// The people watching together and the timeline their renderers follow (absent alone).
    public var group: GroupSnapshot?
    /// Only in the answer to `POST /api/sessions`: what was left out of the request, for the viewer.
    public var warnings: [String]?

    /// The session as of `now` on the sessions' clock (the Up Next countdown is counted from it).
    init(_ session: PlaybackSession, group: WatchGroup? = nil, now: Date) {
        func speed(_ value: PlaybackSpeed) -> Speed {
            Speed(rate: value.rate, localizedName: value.localizedName, localizedNumericName: value.localizedNumericName)
        }
        id = session.id
        assetID = session.assetID
        manifestURL = "/api/assets/\(session.assetID)/manifest.json"
        language = session.language.rawValue
        status = session.status.rawValue
        desiresPlayback = session.desiresPlayback
        currentTime = session.currentTime
        duration = session.duration
        rate = session.rate
        speeds = session.speeds.map(speed)
        selectedSpeed = session.selectedSpeed.map(speed)
        audio = session.audioOptions
        subtitles = session.subtitleOptions
        selectedAudio = session.selectedAudioID
        selectedSubtitles = session.selectedSubtitleID
        volume = session.volume
        muted = session.muted
        interstitials = session.interstitialTimeRanges
        activeInterstitial = session.activeInterstitial
        boundary = session.nextBoundary
        upcomingInterstitial = session.upcomingInterstitial
        failureMessage = session.failureMessage
        permissions = session.permissions
        autoplayBlocked = session.autoplayBlocked
        interstitialFailure = session.interstitialFailure
        interstitialBreak = session.playout.map { InterstitialBreakPosition(position: $0.position, count: $0.count, resumeAt: $0.resumeAt) }
        interstitialBreak?.describe(session.playout, next: session.nextInterstitialItem)
        metadata = session.metadata
        allowsVideoFrameAnalysis = session.allowsVideoFrameAnalysis
        upNext = UpNextSnapshot(session.upNext, now: now)
        self.group = group.map { GroupSnapshot($0, now: now) }
    }
}

/// A group as JSON: who is in it (and who the group waits for) and the shared timeline —
/// at `timeline.at` (milliseconds since 1970 on the server's clock) the item was at
/// `timeline.time` seconds, moving at `timeline.rate` (0: held). `serverTime` is when the
/// snapshot was made, for a renderer that has not measured its clock offset yet.
public struct GroupSnapshot: Codable, Sendable, Hashable {
    /// One person in the group.
    public struct Participant: Codable, Sendable, Hashable {
        /// The participant's ID within the group.
        public var id: String
        /// The name shown to the others ("Waiting for Aki…").
        public var name: String
        /// watching, waiting, behind or away.
        public var state: String
    }

    /// The shared timeline: `time` seconds into the item at `at`, advancing at `rate`.
    public struct Timeline: Codable, Sendable, Hashable {
        /// Seconds into the item at the instant `at`.
        public var time: Double
        /// How fast the timeline moves from `at` on; 0 while the group is held.
        public var rate: Double
        /// The instant `time` refers to, in whole milliseconds since 1970 on the server's clock.
        public var at: Double
    }

    /// The group's ID.
    public var id: String
    /// Everyone in the group, with whether each is watching, waiting, behind or away.
    public var participants: [Participant]
    /// The names of those the group waits for ("Waiting for Aki…").
    public var waitingFor: [String]
    /// How many have a renderer connected ("Watching together · 3").
    public var watching: Int
    /// Where every renderer in the group should be; see `Timeline`.
    public var timeline: Timeline
    /// When this snapshot was made, in whole milliseconds since 1970 on the server's clock.
    public var serverTime: Double

    init(_ group: WatchGroup, now: Date) {
        id = group.id
        participants = group.participants.map { Participant(id: $0.id, name: $0.name, state: $0.state.rawValue) }
        waitingFor = group.waitingFor.map(\.name)
        watching = group.present.count
        timeline = Timeline(time: group.timeline.time, rate: group.timeline.rate, at: (group.timeline.date.timeIntervalSince1970 * 1000).rounded())
        serverTime = (now.timeIntervalSince1970 * 1000).rounded()
    }
}

/// The Up Next offer as JSON: the item, and `state` "offered" (with `secondsLeft` when it
/// counts down), "dismissed" or "chosen" (renderers move on to `playerURL`).
public struct UpNextSnapshot: Codable, Sendable, Hashable {
    /// `offered`, `dismissed` or `chosen`.
    public var state: String
    /// The library asset offered next.
    public var assetID: String
    /// The next item's title, for the card.
    public var title: String
    /// The series the next item belongs to; `nil` when it is not an episode.
    public var seriesTitle: String?
    /// The next item's artwork; `nil` when it has none.
    public var artworkURL: String?
    /// Where renderers go to play it (`/watch/{assetID}`), once the offer is `chosen`.
    public var playerURL: String
    /// Whether the next item can play now; only a ready item counts down and plays by itself.
    public var ready: Bool
    /// Seconds until a ready item plays by itself, while offered.
    public var secondsLeft: Double?

    init?(_ upNext: UpNext, now: Date) {
        guard let item = upNext.item else { return nil }
        switch upNext {
        case .none: return nil
        case .offered(_, let deadline):
            state = "offered"
            secondsLeft = deadline.map { max(0, $0.timeIntervalSince(now)) }
        case .dismissed: state = "dismissed"
        case .chosen: state = "chosen"
        }
        assetID = item.assetID
        title = item.title
        seriesTitle = item.seriesTitle
        artworkURL = item.artworkURL
        playerURL = item.playerURL
        ready = item.isReady
    }
}

/// A frame the server sends to a renderer.
struct OutboundRendererMessage: Encodable, Sendable {
    var v = RendererProtocol.version
    var type: String
    var replyTo: Int?
    var commands: [CommandPayload]?
    var state: SessionSnapshot?
    var reason: String?
    var message: String?
    /// For `refused`: whole seconds until what was refused becomes possible (an ad's skip
    /// button appears, or the ad ends), when a wait brings it.
    var availableIn: Int?
    /// A break's will-present or did-finish (`type` "interstitial").
    var notification: InterstitialNotificationPayload?
    /// For `clock`: the renderer's send time, echoed, and the server's time (ms since 1970).
    var t0: Double?
    var server: Double?

    static func interstitial(_ notification: InterstitialNotification) -> Self {
        Self(type: "interstitial", notification: InterstitialNotificationPayload(notification))
    }

    static func state(_ session: PlaybackSession, group: WatchGroup? = nil, now: Date) -> Self {
        Self(type: "state", state: SessionSnapshot(session, group: group, now: now))
    }

    /// The answer to a renderer's clock probe (`{"type":"clock","t0":…}`): its `t0` back, and
    /// the server's time in milliseconds since 1970, for an NTP-style offset and round trip.
    static func clock(t0: Double, server: Date) -> Self {
        Self(type: "clock", t0: t0, server: (server.timeIntervalSince1970 * 1000 * 1000).rounded() / 1000)
    }

    static func commands(_ commands: [RendererCommand], replyTo: Int?) -> Self {
        Self(type: "commands", replyTo: replyTo, commands: commands.map(CommandPayload.init))
    }

    /// A bare refusal, for a session that is gone by the time it would explain itself.
    static func refused(_ refusal: PlaybackRefusal, replyTo: Int?) -> Self {
        Self(type: "refused", replyTo: replyTo, reason: refusal.rawValue)
    }

    /// A refusal with the session's explanation: its code, a sentence in the session's
    /// language, and how long until the action becomes possible.
    static func refused(_ explanation: RefusalExplanation, replyTo: Int?) -> Self {
        Self(type: "refused", replyTo: replyTo, reason: explanation.reason.rawValue, message: explanation.message, availableIn: explanation.availableIn)
    }

    static func error(_ message: String) -> Self {
        Self(type: "error", message: message)
    }
}
