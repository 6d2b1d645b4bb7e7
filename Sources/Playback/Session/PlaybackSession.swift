/// The authoritative state of one player, as a value: intents and renderer reports go in,
/// renderer commands come out.
///
/// A page (or any renderer) reports what its media element does and carries out the
/// commands; remotes and the page's own gestures send intents. The session applies the
/// rules in one place: play always resumes at the selected speed, seeks stay inside the
/// item, restricted interstitials cannot be skipped or sped up, a forward seek over a
/// constraining interstitial plays it first, captions remember the last choice. It performs
/// no I/O and reads no clock, so every rule is testable without a browser.
public struct PlaybackSession: Sendable {
    /// Where playback stands, as a viewer would describe it.
    public enum Status: String, Sendable, Hashable, Codable {
        /// The renderer has not reported the item's duration yet.
        case loading
        case paused
        case playing
        /// Playback is wanted but the renderer ran out of data.
        case waiting
        case ended
        case failed
    }

    public let id: String
    public let assetID: String
    public var metadata: DisplayMetadata
    public private(set) var language: PlayerLanguage
    /// The speeds the speed menu offers; empty hides the menu.
    public private(set) var speeds: [PlaybackSpeed]
    /// The chosen speed; `nil` only when no speeds are offered (playback is then at 1×).
    public private(set) var selectedSpeed: PlaybackSpeed?
    /// Whether the page's media element plays, is paused, or waits for data — within the
    /// primary item or a break.
    public enum Activity: String, Sendable, Hashable, Codable {
        case paused, playing, waiting
    }

    /// Where the session is. Each case carries what only it has: the break's event, its clock
    /// and where the primary resumes; the failure's message. `status`, `activeInterstitial`,
    /// `interstitialTime` and `failureMessage` are views of it.
    public enum Phase: Sendable, Hashable {
        /// The renderer has not reported the item's duration yet.
        case loading
        case primary(Activity)
        /// A break plays instead of the primary item: the event, its clock, the rest of the
        /// break and where the primary resumes afterwards.
        case interstitial(InterstitialPlayout, activity: Activity)
        case ended
        case failed(message: String)
    }

    public internal(set) var phase: Phase = .loading

    public private(set) var status: Status {
        get {
            switch phase {
            case .loading: .loading
            case .primary(let activity), .interstitial(_, let activity): Status(activity)
            case .ended: .ended
            case .failed: .failed
            }
        }
        set {
            switch (newValue, phase) {
            case (.loading, _): phase = .loading
            case (.ended, _): phase = .ended
            case (.failed, _): phase = .failed(message: failureMessage ?? "")
            case (.paused, _), (.playing, _), (.waiting, _):
                let activity = Activity(rawValue: newValue.rawValue) ?? .paused
                if case .interstitial(let playout, _) = phase {
                    phase = .interstitial(playout, activity: activity)
                } else {
                    phase = .primary(activity)
                }
            }
        }
    }
    /// Whether the viewer wants playback to go on (true while playing or waiting for data).
    public private(set) var desiresPlayback = false
    /// The playhead on the primary item's timeline, in seconds.
    public private(set) var currentTime: Double = 0
    public private(set) var duration: Double?
    public internal(set) var schedule: InterstitialSchedule
    /// The interstitial playing instead of the primary item, if any.
    public var activeInterstitial: InterstitialEvent? { playout?.event }
    /// The break in progress, if any.
    public var playout: InterstitialPlayout? {
        if case .interstitial(let playout, _) = phase { playout } else { nil }
    }
    /// The playhead inside the active interstitial.
    public private(set) var interstitialTime: Double {
        get { playout?.clock ?? 0 }
        set {
            if case .interstitial(var playout, let activity) = phase {
                playout.clock = newValue
                phase = .interstitial(playout, activity: activity)
            }
        }
    }
    public private(set) var audioOptions: [MediaOption]
    public private(set) var subtitleOptions: [MediaOption]
    public private(set) var selectedAudioID: String?
    public private(set) var selectedSubtitleID: String?
    /// Whether the renderer may analyse a paused frame for text (Live Text), like
    /// `AVPlayerViewController.allowsVideoFrameAnalysis`; always false for protected assets.
    public var allowsVideoFrameAnalysis = true
    /// What failed, when `status` is `.failed`.
    public private(set) var failureMessage: String? {
        get { if case .failed(let message) = phase { message } else { nil } }
        set { phase = .failed(message: newValue ?? "") }
    }
    /// Seconds the skip buttons, J/L and the arrow keys move (the `skipInterval` setting).
    public private(set) var skipInterval: Double = 10
    /// Why the last interstitial was skipped without playing, if it failed.
    public private(set) var interstitialFailure: String?
    /// The browser refused to start playback by itself; the viewer must press play.
    public private(set) var autoplayBlocked = false
    /// The item offered after this one ends, and whether it counts down, was dismissed or chosen.
    public internal(set) var upNext: UpNext = .none
    /// Where the playhead goes when the renderer is first ready (`begin(with:)`), then nil.
    public internal(set) var startTime: Double?

    /// The renderer's volume, 0...1, as the session last set it or the renderer reported it.
    /// It is the TV page's own (not stored with the item); remotes read it here and change it
    /// with `setVolume` / `setMuted`, so the session stays the one authority.
    public private(set) var volume: Double = 1
    /// Whether the renderer is muted.
    public private(set) var muted = false

    private var lastSubtitleID: String?
    /// Will-present and did-finish notifications not taken yet (oldest first, at most `notificationLimit`).
    var pendingInterstitialNotifications: [InterstitialNotification] = []
    /// Asset lists the renderer resolved ahead of their break, by event ID (the break takes them when it starts).
    var pendingAssetLists: [String: [InterstitialAsset]] = [:]
    static let notificationLimit = 64

    /// Time reports further apart than this are not treated as playback passing an event.
    static let continuousPlaybackWindow = 3.0
    /// A time report this close after the boundary is the renderer holding there.
    static let boundaryTolerance = 0.25

    public init(
        id: String,
        assetID: String,
        metadata: DisplayMetadata,
        language: PlayerLanguage = .english,
        speeds: [PlaybackSpeed]? = nil,
        audioOptions: [MediaOption] = [],
        subtitleOptions: [MediaOption] = [],
        interstitials: [InterstitialEvent] = []
    ) {
        self.id = id
        self.assetID = assetID
        self.metadata = metadata
        self.language = language
        self.speeds = []
        self.schedule = InterstitialSchedule(events: interstitials)
        self.audioOptions = audioOptions
        self.subtitleOptions = subtitleOptions
        self.selectedAudioID = (audioOptions.first(where: \.isDefault) ?? audioOptions.first)?.id
        self.selectedSubtitleID = nil
        setSpeeds(speeds ?? PlaybackSpeed.systemDefaultSpeeds(language: language))
    }

    /// Sets the skip interval, kept between 1 and 300 seconds (10 when not a number).
    public mutating func setSkipInterval(_ seconds: Double) {
        skipInterval = seconds.isFinite ? min(max(seconds, 1), 300) : 10
    }

    /// What a player may offer the viewer right now. Pages draw their controls from this and
    /// never decide these rules themselves.
    public struct Permissions: Sendable, Hashable, Codable {
        /// Seek, scrub and skip by the interval.
        public var canSeek: Bool
        /// Choose another speed.
        public var canChangeRate: Bool
        /// End the active interstitial early (its skip button).
        public var canSkipInterstitial: Bool
        /// Play and pause.
        public var canPlayPause: Bool
        /// Seconds one skip moves.
        public var skipInterval: Double
    }

    public var permissions: Permissions {
        let alive = status != .failed
        let restricted = activeInterstitial?.restrictsSkipping ?? false
        return Permissions(
            canSeek: alive && duration != nil && !restricted,
            canChangeRate: alive && !speeds.isEmpty && !restricted,
            canSkipInterstitial: alive && canSkipActiveInterstitial,
            canPlayPause: alive,
            skipInterval: skipInterval)
    }

    // MARK: Derived state

    /// The rate the renderer plays at now: 0 unless playing.
    public var rate: Double {
        guard status == .playing else { return 0 }
        if let event = activeInterstitial { return rate(for: event) }
        return preferredRate
    }

    /// The rate playback resumes at: the selected speed's, or 1 when no speeds are offered.
    public var preferredRate: Double { selectedSpeed?.rate ?? 1 }

    /// The primary time at which the renderer must hold playback and report it: the next
    /// unplayed timed interstitial ahead of the playhead. A renderer that pauses its element
    /// exactly there (rather than noticing the break up to a time report later) starts the
    /// break on the right frame, and the primary resumes where it stopped without repeating
    /// anything. The session answers the report with the break, or with `play` to go on.
    public var nextBoundary: Double? {
        guard activeInterstitial == nil, status != .ended else { return nil }
        return schedule.nextEvent(after: currentTime)?.time
    }

    /// Interstitial marks for the timeline.
    public var interstitialTimeRanges: [InterstitialTimeRange] { schedule.timeRanges(primaryDuration: duration) }

    // MARK: Configuration

    /// Replaces the offered speeds (a custom list, or empty to hide the menu). The selection
    /// survives when its rate is still offered, otherwise falls back to 1× or the first speed.
    /// At most `PlaybackSpeed.maximumCount` distinct speeds are kept (the first ones given),
    /// so no caller can make every state frame carry an unbounded list.
    public mutating func setSpeeds(_ newSpeeds: [PlaybackSpeed]) {
        var seen = Set<Double>()
        var kept: [PlaybackSpeed] = []
        for speed in newSpeeds where kept.count < PlaybackSpeed.maximumCount {
            if speed.rate > 0, speed.rate.isFinite, seen.insert(speed.rate).inserted { kept.append(speed) }
        }
        speeds = kept.sorted { $0.rate < $1.rate }
        if let selected = selectedSpeed, let kept = speeds.first(where: { $0.rate == selected.rate }) {
            selectedSpeed = kept
        } else {
            selectedSpeed = speeds.first(where: { $0.rate == 1 }) ?? speeds.first
        }
    }

    /// Renames speeds and sets the interface language; the selection stays.
    public mutating func setLanguage(_ newLanguage: PlayerLanguage) {
        language = newLanguage
        speeds = speeds.map { $0.localized(newLanguage) }
        selectedSpeed = selectedSpeed?.localized(newLanguage)
    }

    // MARK: Intents

    /// Applies a viewer's intent. Returns the commands that carry it out, or why it was refused.
    public mutating func handle(_ intent: PlaybackIntent) -> Result<[RendererCommand], PlaybackRefusal> {
        let result = apply(intent)
        // Playing the item again (a seek or play after the end) takes back an offer not yet chosen.
        if status != .ended, case .offered = upNext { upNext = .none }
        if status != .ended, case .dismissed = upNext { upNext = .none }
        return result
    }

    private mutating func apply(_ intent: PlaybackIntent) -> Result<[RendererCommand], PlaybackRefusal> {
        if status == .failed { return .failure(.failed) }
        switch intent {
        case .upNext(let choice):
            return upNext.handling(choice).map { next in
                upNext = next
                return []
            }
        case .play:
            autoplayBlocked = false
            return .success(play())
        case .pause:
            return .success(pause())
        case .togglePlayPause:
            autoplayBlocked = false
            return .success(desiresPlayback ? pause() : play())
        case .skipInterval(let direction):
            guard direction != 0 else { return .failure(.invalidValue) }
            return handle(.skip(by: direction > 0 ? skipInterval : -skipInterval))
        case .skipInterstitial:
            guard canSkipActiveInterstitial else { return .failure(.interstitialNotSkippable) }
            return .success(skipCurrentEvent())
        case .skip(let seconds):
            guard seconds.isFinite else { return .failure(.invalidValue) }
            let base = activeInterstitial == nil ? currentTime : interstitialTime
            return seek(to: base + seconds)
        case .seek(let time):
            guard time.isFinite else { return .failure(.invalidValue) }
            return seek(to: time)
        case .seekToFraction(let fraction):
            guard fraction.isFinite else { return .failure(.invalidValue) }
            guard let duration else { return .failure(.notReady) }
            return seek(to: duration * min(max(fraction, 0), 1))
        case .selectSpeed(let rate):
            guard !speeds.isEmpty else { return .failure(.noSpeedsOffered) }
            guard let speed = speeds.first(where: { $0.rate == rate }) else { return .failure(.speedNotOffered) }
            return select(speed)
        case .stepSpeed(let step):
            guard !speeds.isEmpty else { return .failure(.noSpeedsOffered) }
            let index = selectedSpeed.flatMap { speeds.firstIndex(of: $0) } ?? 0
            // Clamp the step first: a client may send any Int, and `index + step` must not trap.
            let bounded = min(max(step, -speeds.count), speeds.count)
            let target = min(max(index + bounded, 0), speeds.count - 1)
            return select(speeds[target])
        case .selectAudio(let id):
            guard audioOptions.contains(where: { $0.id == id }) else { return .failure(.unknownRendition) }
            selectedAudioID = id
            return .success([.selectAudio(id: id)])
        case .selectSubtitles(let id):
            if let id, !subtitleOptions.contains(where: { $0.id == id }) { return .failure(.unknownRendition) }
            return .success(showSubtitles(id))
        case .toggleCaptions:
            if selectedSubtitleID != nil { return .success(showSubtitles(nil)) }
            guard !subtitleOptions.isEmpty else { return .failure(.noSubtitles) }
            let choice =
                subtitleOptions.first(where: { $0.id == lastSubtitleID })
                ?? subtitleOptions.first(where: { $0.language.map { PlayerLanguage(preferred: [$0]) == language } ?? false })
                ?? subtitleOptions.first(where: \.isDefault)
                ?? subtitleOptions[0]
            return .success(showSubtitles(choice.id))
        case .setVolume(let level):
            guard level.isFinite else { return .failure(.invalidValue) }
            volume = min(max(level, 0), 1)
            muted = volume == 0
            return .success([.setVolume(level: volume, muted: muted)])
        case .setMuted(let mute):
            muted = mute
            // Unmuting at level 0 would stay silent: come back at a quarter, as the page's own button does.
            if !mute, volume == 0 { volume = 0.25 }
            return .success([.setVolume(level: volume, muted: muted)])
        }
    }

    private mutating func play() -> [RendererCommand] {
        desiresPlayback = true
        guard let duration else { return [] }
        if let event = activeInterstitial {
            status = .playing
            return [.play(rate: rate(for: event))]
        }
        if status == .ended || currentTime >= duration {
            currentTime = 0
            status = .playing
            return [.seek(to: 0), .play(rate: preferredRate)]
        }
        let preRolls = schedule.preRollBreak()
        if currentTime <= 0, !preRolls.isEmpty {
            status = .playing
            return [begin(preRolls, stoppedAt: 0, resumingAt: 0)]
        }
        status = .playing
        return [.play(rate: preferredRate)]
    }

    private mutating func pause() -> [RendererCommand] {
        desiresPlayback = false
        if status == .playing || status == .waiting { status = .paused }
        return [.pause]
    }

    private mutating func seek(to requested: Double) -> Result<[RendererCommand], PlaybackRefusal> {
        guard let duration else { return .failure(.notReady) }
        if let event = activeInterstitial {
            if event.restrictsSkipping {
                return .failure(.seekingRestrictedDuringInterstitial)
            }
            // Seeking out of an unrestricted interstitial skips the rest of its break.
            announceFinish(event, .seekedAway)
            phase = .primary(status == .waiting ? .playing : Activity(rawValue: status.rawValue) ?? .paused)
            currentTime = min(max(requested, 0), duration)
            return .success([.resumePrimary(at: currentTime, rate: desiresPlayback ? preferredRate : 0)])
        }
        let target = min(max(requested, 0), duration)
        if let event = schedule.event(constrainingSeekFrom: currentTime, to: target) {
            // The last jump-restricted break before the target plays first, then the seek lands.
            return .success([begin(schedule.midRollBreak(at: event.time), stoppedAt: event.time, resumingAt: target)])
        }
        currentTime = target
        if status == .ended, target < duration {
            status = desiresPlayback ? .playing : .paused
        }
        return .success([.seek(to: target)])
    }

    private mutating func select(_ speed: PlaybackSpeed) -> Result<[RendererCommand], PlaybackRefusal> {
        if let event = activeInterstitial, event.restrictsSkipping, speed.rate > 1 {
            return .failure(.rateRestrictedDuringInterstitial)
        }
        selectedSpeed = speed
        return .success(status == .playing ? [.play(rate: speed.rate)] : [])
    }

    private mutating func showSubtitles(_ id: String?) -> [RendererCommand] {
        selectedSubtitleID = id
        if let id { lastSubtitleID = id }
        return [.selectSubtitles(id: id)]
    }

    // MARK: Renderer reports

    /// What the renderer should be playing now, as reports name it.
    public var renderedItem: RenderedItem {
        guard let playout else { return .primary }
        return .interstitial(eventID: playout.event.id, assetIndex: playout.assetIndex)
    }

    /// Takes in a report about `item` (nil: whatever plays, for renderers that do not say). A
    /// report about an item other than the one playing now was sent before the renderer
    /// heard the last command: it is dropped, and changes nothing.
    public mutating func handle(_ report: RendererReport, about item: RenderedItem?) -> [RendererCommand] {
        if let item, report.isAboutThePlayingItem, item != renderedItem { return [] }
        return handle(report)
    }

    /// Takes in what the renderer saw. Returns commands when the rules call for any (an
    /// interstitial starts or ends, playback was wanted before the item was ready).
    public mutating func handle(_ report: RendererReport) -> [RendererCommand] {
        if status == .failed { return [] }
        switch report {
        case .ready(let newDuration):
            // A renderer reports what its media element says; a live stream's Infinity or a
            // NaN is not a duration this session can schedule against.
            guard newDuration.isFinite else { return [] }
            let firstReady = duration == nil
            duration = max(newDuration, 0)
            // A renderer may learn a different duration later (a shorter last segment).
            currentTime = min(currentTime, max(newDuration, 0))
            guard firstReady else { return [] }
            status = .paused
            var commands: [RendererCommand] = []
            if let start = startTime {
                startTime = nil
                if case .success(let moves) = seek(to: start) { commands = moves }
            }
            return commands + (desiresPlayback ? play() : [])
        case .time(let time):
            guard time.isFinite else { return [] }
            if let event = activeInterstitial {
                // The renderer reports the time in the asset playing; the event's clock runs on across its asset list.
                interstitialTime = (playout?.assetStart ?? 0) + max(time, 0)
                // A playout limit ends the event early, whatever its content's length.
                if let limit = event.playoutLimit, interstitialTime >= limit { return advanceBreak(.playoutLimit) }
                return []
            }
            let previous = currentTime
            let boundary = nextBoundary
            currentTime = min(max(time, 0), duration ?? max(time, 0))
            guard desiresPlayback, status == .playing || status == .waiting else { return [] }
            if time - previous <= Self.continuousPlaybackWindow,
                let event = schedule.event(reachedBetween: previous, and: currentTime)
            {
                // The primary resumes where it stopped (the renderer holds it at the event's
                // time), so nothing that played before the break plays again after it; the
                // resumption offsets of the break's events add up.
                let events = schedule.midRollBreak(at: event.time)
                return [begin(events, stoppedAt: currentTime, resumingAt: schedule.resumption(after: events, stoppedAt: currentTime))]
            }
            // A report at the boundary that starts nothing (the previous report is too old to
            // count as playback passing it) releases the renderer's hold.
            if let boundary, currentTime >= boundary, currentTime - boundary < Self.boundaryTolerance {
                return [.play(rate: preferredRate)]
            }
            return []
        case .playing:
            if status == .waiting || (status == .paused && desiresPlayback) { status = .playing }
            return []
        case .stalled:
            if desiresPlayback && status == .playing { status = .waiting }
            return []
        case .ended:
            // Nothing has played before the item is ready (an early `ended` is a confused renderer).
            guard duration != nil else { return [] }
            return itemEnded()
        case .failed(let message):
            desiresPlayback = false
            if let event = activeInterstitial { announceFinish(event, .failed, message: message) }
            phase = .failed(message: message)
            return []
        case .interstitialFailed(let message):
            // An event that cannot play is skipped, never left stalling the primary.
            guard activeInterstitial != nil else { return [] }
            interstitialFailure = message
            return advanceBreak(.failed, message: message)
        case .volume(let level, let mute):
            guard level.isFinite else { return [] }
            volume = min(max(level, 0), 1)
            muted = mute
            return []
        case .interstitialAssetList(let eventID, let assets):
            takeAssetList(assets, for: eventID)
            return []
        case .autoplayBlocked:
            autoplayBlocked = true
            desiresPlayback = false
            if status == .playing || status == .waiting { status = .paused }
            return []
        }
    }

    private mutating func itemEnded() -> [RendererCommand] {
        if activeInterstitial != nil { return advanceBreak(.completed) }
        currentTime = duration ?? currentTime
        let postRolls = schedule.postRollBreak()
        if !postRolls.isEmpty {
            return [begin(postRolls, stoppedAt: currentTime, resumingAt: currentTime)]
        }
        return finishPrimary()
    }

    /// The active event is over (played, skipped, failed or cut by its playout limit): the
    /// next event of the break plays, or the primary resumes.
    mutating func advanceBreak(_ reason: InterstitialNotification.Reason, message: String? = nil) -> [RendererCommand] {
        guard case .interstitial(let current, let activity) = phase else { return [] }
        // An asset of the event's asset list that played out (or failed) hands on to the next
        // one; a skip, a cancel or the playout limit ends the whole event.
        if reason == .completed || reason == .failed, let next = current.advancedToNextAsset(), let asset = next.asset {
            phase = .interstitial(next, activity: activity == .waiting ? .playing : activity)
            return [.playInterstitialAsset(next.event, asset: asset, index: next.assetIndex, rate: desiresPlayback ? rate(for: next.event) : 0)]
        }
        announceFinish(current.event, reason, message: message)
        if let next = current.advanced() {
            phase = .interstitial(next, activity: activity == .waiting ? .playing : activity)
            announce(.willPresent, next.event)
            return [.playInterstitial(next.event, rate: desiresPlayback ? rate(for: next.event) : 0)]
        }
        return endBreak(resumingAt: current.resumeAt)
    }

    /// The whole break is over: the primary resumes at `time` (or ends, after a post-roll).
    mutating func endBreak(resumingAt time: Double) -> [RendererCommand] {
        guard case .interstitial(let current, let activity) = phase else { return [] }
        phase = .primary(activity == .waiting ? .playing : activity)
        if current.event.cue == .leaveCue {
            return finishPrimary() + [.resumePrimary(at: currentTime, rate: 0)]
        }
        currentTime = min(max(time, 0), duration ?? max(time, 0))
        return [.resumePrimary(at: currentTime, rate: status == .playing ? preferredRate : 0)]
    }

    private mutating func finishPrimary() -> [RendererCommand] {
        currentTime = duration ?? currentTime
        status = .ended
        desiresPlayback = false
        return []
    }

    /// Starts a break: `events` (all at one time, non-empty) play in order, then the primary
    /// resumes at `time`. Each event has had its turn once the break starts, so a `once` event
    /// is not replayed even when it is skipped, cancelled or fails.
    private mutating func begin(_ events: [InterstitialEvent], stoppedAt: Double, resumingAt time: Double) -> RendererCommand {
        let event = events[0]
        for each in events { schedule.markPlayed(each) }
        let activity: Activity = desiresPlayback ? .playing : .paused
        // A stall of the primary no longer matters: the break plays now.
        phase = .interstitial(
            InterstitialPlayout(
                event: event, resumeAt: time, stoppedAt: stoppedAt, upNext: Array(events.dropFirst()),
                assetLists: takePendingAssetLists(of: events)),
            activity: activity)
        if event.cue == .none { currentTime = min(max(event.time, 0), duration ?? event.time) }
        announce(.willPresent, event)
        return .playInterstitial(event, rate: desiresPlayback ? rate(for: event) : 0)
    }

    /// The rate an event plays at: the preferred rate, but never above 1× when it restricts skipping.
    func rate(for event: InterstitialEvent) -> Double {
        event.restrictsSkipping ? min(preferredRate, 1) : preferredRate
    }

    /// Whether the viewer may end the active event now: during its skip control's window, or
    /// at any time when it has no skip control and does not restrict skipping.
    var canSkipActiveInterstitial: Bool {
        guard let playout else { return false }
        if let control = playout.event.skipControl { return control.isShown(at: playout.clock) }
        return !playout.event.restrictsSkipping
    }
}

extension PlaybackSession.Status {
    init(_ activity: PlaybackSession.Activity) {
        switch activity {
        case .paused: self = .paused
        case .playing: self = .playing
        case .waiting: self = .waiting
        }
    }
}
