public import Clocks
public import Foundation
public import Playback

/// Every live playback session of the server, by id, and the renderer connected to each.
///
/// Each page that opens a player gets its own session, even for the same asset. Intents from
/// the page's socket or from the REST API go through here; the resulting commands go to the
/// session's renderer, and a fresh state snapshot to the renderer after every change.
public actor PlaybackSessions {
    struct Entry {
        var session: PlaybackSession
        var renderer: AsyncStream<OutboundRendererMessage>.Continuation?
        var rendererID: UUID?
        var lastActive: Date
    }

    private var entries: [String: Entry] = [:]
    /// Sessions without a renderer for this long are dropped.
    let idleTimeout: TimeInterval
    /// A session whose renderer went away is dropped after this long unless a renderer comes
    /// back (a page reload reattaches well within it).
    let rendererGracePeriod: Duration
    /// The time idle sessions and grace periods are measured on (a manual clock in tests).
    let clock: any WallClock
    /// Messages queued for a renderer that does not read; past this the renderer is dropped
    /// (its stream finishes and its socket closes) instead of the server buffering without limit.
    static let rendererQueueLimit = 256
    /// How many frames each renderer socket may send (a flooding socket is closed).
    nonisolated let rendererFrames: RendererFrameBudget
    /// Told of every change a viewer could notice (Live Activities' Now playing follows it).
    private var observer: (@Sendable (PlaybackSessionChange) -> Void)?

    /// Told of every break's will-present and did-finish, with the session and asset IDs (the
    /// interstitial webhooks); called on the actor, so it must return at once.
    nonisolated let interstitialListener = InterstitialListenerSlot()

    /// What follows a session's item, asked when it ends (the Up Next offer).
    nonisolated let upNextSource = UpNextSourceSlot()

    /// Sends a session's queued interstitial notifications to its page and to the listener.
    private func announceInterstitials(of id: String) {
        guard var entry = entries[id] else { return }
        let notifications = entry.session.takeInterstitialNotifications()
        guard !notifications.isEmpty else { return }
        entries[id] = entry
        for notification in notifications {
            send(.interstitial(notification), to: id)
            interstitialListener.call(notification, sessionID: id, assetID: entry.session.assetID)
        }
    }

    /// Sets the one observer of session changes.
    public func observe(_ observer: @escaping @Sendable (PlaybackSessionChange) -> Void) { self.observer = observer }

    private func notify(_ id: String) {
        guard let observer else { return }
        if let entry = entries[id] { observer(.changed(entry.session, rendererAttached: entry.renderer != nil)) } else { observer(.removed(id)) }
    }

    public init(
        idleTimeout: TimeInterval = 30 * 60, rendererGracePeriod: Duration = .seconds(600),
        rendererFrames: RendererFrameBudget = RendererFrameBudget(), clock: any WallClock = SystemClock()
    ) {
        self.clock = clock
        self.idleTimeout = idleTimeout
        self.rendererGracePeriod = rendererGracePeriod
        self.rendererFrames = rendererFrames
    }

    public func insert(_ session: PlaybackSession) {
        dropIdle()
        entries[session.id] = Entry(session: session, lastActive: clock.now)
    }

    public func session(id: String) -> PlaybackSession? {
        entries[id]?.session
    }

    /// The session as the page and the API see it, now.
    public func snapshot(id: String) -> SessionSnapshot? {
        entries[id].map { SessionSnapshot($0.session, now: clock.now) }
    }

    /// Asks the source what follows the session's item, offers it, and counts a ready item
    /// down on the sessions' clock (a viewer may play or dismiss it first).
    private func prepareUpNext(for id: String) {
        guard let source = upNextSource.current, let assetID = entries[id]?.session.assetID else { return }
        Task { [weak self] in
            let item = await source(assetID)
            await self?.offerUpNext(item, to: id)
        }
    }

    private func offerUpNext(_ item: UpNextItem?, to id: String) {
        guard var entry = entries[id] else { return }
        // The end was held back from the observer until now (see `report`): tell it either way.
        guard entry.session.offerUpNext(item, at: clock.now) else { return notify(id) }
        entries[id] = entry
        send(.state(entry.session, now: clock.now), to: id)
        notify(id)
        guard case .offered(_, let deadline?) = entry.session.upNext else { return }
        let clock = clock
        let wait = Duration.milliseconds(Int64((deadline.timeIntervalSince(clock.now) * 1000).rounded(.up)))
        Task { [weak self] in
            try? await clock.sleep(for: wait)
            await self?.countUpNextDown(id)
        }
    }

    /// The countdown's end: an offer still standing is chosen, and every renderer moves on.
    private func countUpNextDown(_ id: String) {
        guard var entry = entries[id], entry.session.advanceUpNext(to: clock.now) else { return }
        entries[id] = entry
        send(.state(entry.session, now: clock.now), to: id)
        notify(id)
    }

    public var count: Int { entries.count }

    /// The session on screen: the most recently active one with a renderer attached (what a
    /// remote controls).
    public func mostRecentlyRenderedSessionID() -> String? {
        entries.filter { $0.value.renderer != nil }.max { $0.value.lastActive < $1.value.lastActive }?.key
    }

    @discardableResult
    public func remove(id: String) -> Bool {
        guard let entry = entries.removeValue(forKey: id) else { return false }
        entry.renderer?.finish()
        notify(id)
        return true
    }

    /// Applies an intent; on success sends the commands to the renderer (if any) and returns them.
    public func apply(_ intent: PlaybackIntent, to id: String, replyTo: Int? = nil) -> Result<[RendererCommand], PlaybackRefusal>? {
        guard var entry = entries[id] else { return nil }
        let result = entry.session.handle(intent)
        entry.lastActive = clock.now
        entries[id] = entry
        announceInterstitials(of: id)
        switch result {
        case .success(let commands):
            send(.commands(commands, replyTo: replyTo), to: id)
        case .failure(let refusal):
            send(.refused(refusal, replyTo: replyTo), to: id)
        }
        send(.state(entry.session, now: clock.now), to: id)
        notify(id)
        return result
    }

    /// Gives every open session of `assetID` these interstitial events (after an author changed
    /// them) and sends each its new state, so the page's timeline marks update at once.
    public func setInterstitialEvents(_ events: [InterstitialEvent], forAsset assetID: String) {
        for (id, var entry) in entries where entry.session.assetID == assetID {
            entry.session.setStreamInterstitialEvents(events)
            entries[id] = entry
            send(.state(entry.session, now: clock.now), to: id)
        }
    }

    /// Takes a renderer report (about `item`, when the renderer names it: one about an item
    /// no longer playing is dropped); sends any resulting commands and, when something a
    /// viewer would notice changed, the new state.
    func report(_ report: RendererReport, about item: RenderedItem? = nil, to id: String) {
        guard var entry = entries[id] else { return }
        let before = entry.session.status
        let beforeInterstitial = entry.session.activeInterstitial
        let beforePermissions = entry.session.permissions
        let commands = entry.session.handle(report, about: item)
        entry.lastActive = clock.now
        entries[id] = entry
        announceInterstitials(of: id)
        if !commands.isEmpty { send(.commands(commands, replyTo: nil), to: id) }
        // At the end, the observer (the Now Playing activity) hears of it with the Up Next
        // offer, once the source has answered, rather than ending first and missing it.
        let endedNow = before != .ended && entry.session.status == .ended && upNextSource.current != nil
        if endedNow { prepareUpNext(for: id) }
        let isTimeTick: Bool = if case .time = report { true } else { false }
        if !isTimeTick || !commands.isEmpty || before != entry.session.status || beforeInterstitial != entry.session.activeInterstitial
            || beforePermissions != entry.session.permissions
        {
            send(.state(entry.session, now: clock.now), to: id)
            if !endedNow { notify(id) }
        }
    }

    /// Queues a message for the session's renderer; a renderer whose queue is full is not
    /// reading, so it is dropped (a page that reconnects gets a fresh state snapshot).
    private func send(_ message: OutboundRendererMessage, to id: String) {
        guard let renderer = entries[id]?.renderer, let rendererID = entries[id]?.rendererID else { return }
        if case .dropped = renderer.yield(message) {
            detachRenderer(rendererID, from: id)
        }
    }

    /// Whether `rendererID` is still the session's renderer (a replaced one may not drive it).
    func isAttached(_ rendererID: UUID, to id: String) -> Bool {
        entries[id]?.rendererID == rendererID
    }

    /// Connects a renderer; a second renderer replaces the first (whose stream ends).
    func attachRenderer(to id: String) -> (UUID, AsyncStream<OutboundRendererMessage>)? {
        guard var entry = entries[id] else { return nil }
        entry.renderer?.finish()
        let (stream, continuation) = AsyncStream.makeStream(
            of: OutboundRendererMessage.self, bufferingPolicy: .bufferingOldest(Self.rendererQueueLimit))
        let rendererID = UUID()
        entry.renderer = continuation
        entry.rendererID = rendererID
        entry.lastActive = clock.now
        entries[id] = entry
        continuation.yield(.state(entry.session, now: clock.now))
        notify(id)
        return (rendererID, stream)
    }

    func detachRenderer(_ rendererID: UUID, from id: String) {
        guard var entry = entries[id], entry.rendererID == rendererID else { return }
        entry.renderer?.finish()
        entry.renderer = nil
        entry.rendererID = nil
        entry.lastActive = clock.now
        entries[id] = entry
        notify(id)
        let (grace, clock) = (rendererGracePeriod, clock)
        Task { [weak self] in
            try? await clock.sleep(for: grace)
            await self?.dropIfStillDetached(id, since: entry.lastActive)
        }
    }

    /// Drops a session that has had no renderer and no activity since `since`.
    private func dropIfStillDetached(_ id: String, since: Date) {
        guard let entry = entries[id], entry.renderer == nil, entry.lastActive <= since else { return }
        entries.removeValue(forKey: id)
        notify(id)
    }

    private func dropIdle() {
        let cutoff = clock.now.addingTimeInterval(-idleTimeout)
        for (id, entry) in entries where entry.renderer == nil && entry.lastActive < cutoff {
            entries.removeValue(forKey: id)
        }
    }
}

/// A change to a playback session that something outside the session follows.
public enum PlaybackSessionChange: Sendable {
    case changed(PlaybackSession, rendererAttached: Bool)
    case removed(String)
}
