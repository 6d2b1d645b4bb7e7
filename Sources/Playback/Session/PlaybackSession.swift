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
        /// A break plays instead of the primary item, which resumes at `resumeAt` afterwards.
        case interstitial(InterstitialEvent, clock: Double, resumeAt: Double, activity: Activity)
        case ended
        case failed(message: String)
    }

    public private(set) var phase: Phase = .loading

    public private(set) var status: Status {
        get {
            switch phase {
            case .loading: .loading
            case .primary(let activity), .interstitial(_, _, _, let activity): Status(activity)
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
                if case .interstitial(let event, let clock, let resumeAt, _) = phase {
                    phase = .interstitial(event, clock: clock, resumeAt: resumeAt, activity: activity)
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
    public private(set) var schedule: InterstitialSchedule
    /// The interstitial playing instead of the primary item, if any.
    public private(set) var activeInterstitial: InterstitialEvent? {
        get { if case .interstitial(let event, _, _, _) = phase { event } else { nil } }
        set {
            let activity: Activity = if case .interstitial(_, _, _, let a) = phase { a }
                else if case .primary(let a) = phase { a } else { .paused }
            if let newValue {
                phase = .interstitial(newValue, clock: 0, resumeAt: resumeTime, activity: activity)
            } else if case .interstitial = phase {
                phase = .primary(activity)
            }
        }
    }
    /// The playhead inside the active interstitial.
    public private(set) var interstitialTime: Double {
        get { if case .interstitial(_, let clock, _, _) = phase { clock } else { 0 } }
        set {
            if case .interstitial(let event, _, let resumeAt, let activity) = phase {
                phase = .interstitial(event, clock: newValue, resumeAt: resumeAt, activity: activity)
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

    /// Where the primary resumes after the active break.
    private var resumeTime: Double {
        get { if case .interstitial(_, _, let resumeAt, _) = phase { resumeAt } else { 0 } }
        set {
            if case .interstitial(let event, let clock, _, let activity) = phase {
                phase = .interstitial(event, clock: clock, resumeAt: newValue, activity: activity)
            }
        }
    }
    private var lastSubtitleID: String?

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
        let restricted = activeInterstitial?.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) ?? false
        return Permissions(
            canSeek: alive && duration != nil && !restricted,
            canChangeRate: alive && !speeds.isEmpty && !restricted,
            canSkipInterstitial: alive && activeInterstitial != nil && !restricted,
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
    public mutating func setSpeeds(_ newSpeeds: [PlaybackSpeed]) {
        var seen = Set<Double>()
        speeds = newSpeeds.filter { $0.rate > 0 && $0.rate.isFinite && seen.insert($0.rate).inserted }.sorted { $0.rate < $1.rate }
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
        if status == .failed { return .failure(.failed) }
        switch intent {
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
            guard let event = activeInterstitial,
                  !event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) else {
                return .failure(.interstitialNotSkippable)
            }
            return .success(endInterstitial(event))
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
            let choice = subtitleOptions.first(where: { $0.id == lastSubtitleID })
                ?? subtitleOptions.first(where: { $0.language.map { PlayerLanguage(preferred: [$0]) == language } ?? false })
                ?? subtitleOptions.first(where: \.isDefault)
                ?? subtitleOptions[0]
            return .success(showSubtitles(choice.id))
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
        if currentTime <= 0, let preRoll = schedule.preRoll() {
            status = .playing
            return [begin(preRoll, resumingAt: 0)]
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
            if event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) {
                return .failure(.seekingRestrictedDuringInterstitial)
            }
            // Seeking out of an unrestricted interstitial skips the rest of it.
            schedule.markPlayed(event)
            activeInterstitial = nil
            currentTime = min(max(requested, 0), duration)
            return .success([.resumePrimary(at: currentTime, rate: desiresPlayback ? preferredRate : 0)])
        }
        let target = min(max(requested, 0), duration)
        if let event = schedule.event(constrainingSeekFrom: currentTime, to: target) {
            return .success([begin(event, resumingAt: target)])
        }
        currentTime = target
        if status == .ended, target < duration {
            status = desiresPlayback ? .playing : .paused
        }
        return .success([.seek(to: target)])
    }

    private mutating func select(_ speed: PlaybackSpeed) -> Result<[RendererCommand], PlaybackRefusal> {
        if let event = activeInterstitial, event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) {
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
            return desiresPlayback ? play() : []
        case .time(let time):
            guard time.isFinite else { return [] }
            if activeInterstitial != nil {
                interstitialTime = max(time, 0)
                return []
            }
            let previous = currentTime
            let boundary = nextBoundary
            currentTime = min(max(time, 0), duration ?? max(time, 0))
            guard desiresPlayback, status == .playing || status == .waiting else { return [] }
            if time - previous <= Self.continuousPlaybackWindow,
               let event = schedule.event(reachedBetween: previous, and: currentTime) {
                // The primary resumes where it stopped (the renderer holds it at the event's
                // time), so nothing that played before the break plays again after it.
                return [begin(event, resumingAt: currentTime + event.resumptionOffset)]
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
            phase = .failed(message: message)
            return []
        case .interstitialFailed(let message):
            // A break that cannot play is skipped, never left stalling the primary.
            guard let event = activeInterstitial else { return [] }
            interstitialFailure = message
            return endInterstitial(event)
        case .autoplayBlocked:
            autoplayBlocked = true
            desiresPlayback = false
            if status == .playing || status == .waiting { status = .paused }
            return []
        }
    }

    private mutating func itemEnded() -> [RendererCommand] {
        if let event = activeInterstitial { return endInterstitial(event) }
        currentTime = duration ?? currentTime
        if let postRoll = schedule.postRoll() {
            return [begin(postRoll, resumingAt: currentTime)]
        }
        return finishPrimary()
    }

    /// The break is over (played, skipped or failed): the primary resumes where it left.
    private mutating func endInterstitial(_ event: InterstitialEvent) -> [RendererCommand] {
        let resumeTime = resumeTime
        schedule.markPlayed(event)
        activeInterstitial = nil
        interstitialTime = 0
        if event.cue == .leaveCue {
            return finishPrimary() + [.resumePrimary(at: currentTime, rate: 0)]
        }
        currentTime = min(resumeTime, duration ?? resumeTime)
        if status == .waiting { status = .playing }
        return [.resumePrimary(at: currentTime, rate: status == .playing ? preferredRate : 0)]
    }

    private mutating func finishPrimary() -> [RendererCommand] {
        currentTime = duration ?? currentTime
        status = .ended
        desiresPlayback = false
        return []
    }

    private mutating func begin(_ event: InterstitialEvent, resumingAt time: Double) -> RendererCommand {
        activeInterstitial = event
        resumeTime = time
        // A stall of the primary no longer matters: the break plays now.
        if desiresPlayback { status = .playing }
        if event.cue == .none { currentTime = event.time }
        return .playInterstitial(event, rate: desiresPlayback ? rate(for: event) : 0)
    }

    private func rate(for event: InterstitialEvent) -> Double {
        event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) ? 1 : preferredRate
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
