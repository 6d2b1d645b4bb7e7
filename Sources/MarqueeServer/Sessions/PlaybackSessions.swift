import Accounts
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
        /// The renderers connected: one for a session of one viewer, one per participant of a
        /// group (each with its participant's ID).
        var renderers: [UUID: RendererLink] = [:]
        /// Several people watching this session together, once someone started it.
        var group: WatchGroup?
        var lastActive: Date

        var hasRenderer: Bool { !renderers.isEmpty }
    }

    /// One renderer's queue of outgoing messages, and whose it is in a group.
    struct RendererLink {
        var continuation: AsyncStream<OutboundRendererMessage>.Continuation
        var participantID: String?
        /// When this renderer last sent anything (a group's pages probe the clock every 5 s).
        var lastHeard: Date
    }

    var entries: [String: Entry] = [:]
    /// Sessions without a renderer for this long are dropped.
    let idleTimeout: TimeInterval
    /// A session whose renderer went away is dropped after this long unless a renderer comes
    /// back (a page reload reattaches well within it).
    let rendererGracePeriod: Duration
    /// The time idle sessions and grace periods are measured on (a manual clock in tests).
    nonisolated let clock: any WallClock
    /// Messages queued for a renderer that does not read; past this the renderer is dropped
    /// (its stream finishes and its socket closes) instead of the server buffering without limit.
    static let rendererQueueLimit = 256
    /// How many frames each renderer socket may send (a flooding socket is closed).
    nonisolated let rendererFrames: RendererFrameBudget
    /// Told of every change a viewer could notice (Live Activities' Now playing follows it).
    private var observer: (@Sendable (PlaybackSessionChange) -> Void)?
    /// Group invitations: token → session ID (see `PlaybackSessions+Groups.swift`).
    var invitations: [String: GroupInvitation] = [:]
    /// Guests admitted by those invitations: secret → pass (see `PlaybackSessions+Guests.swift`).
    var guestPasses: [String: GuestPass] = [:]

    /// Told of every break's will-present and did-finish, with the session and asset IDs (the
    /// interstitial webhooks); called on the actor, so it must return at once.
    nonisolated let interstitialListener = InterstitialListenerSlot()

    /// What follows a session's item, asked when it ends (the Up Next offer).
    nonisolated let upNextSource = UpNextSourceSlot()

    /// Sends a session's queued interstitial notifications to its page and to the listener.
    func announceInterstitials(of id: String) {
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

    func notify(_ id: String) {
        guard let observer else { return }
        if let entry = entries[id] {
            observer(.changed(entry.session, rendererAttached: entry.hasRenderer, watching: entry.group?.present.count))
        } else {
            observer(.removed(id))
        }
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
        entries[id].map { SessionSnapshot($0.session, group: $0.group, now: clock.now) }
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
        sendState(to: id)
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
        sendState(to: id)
        notify(id)
    }

    public var count: Int { entries.count }

    /// The session on screen: the most recently active one with a renderer attached (what a
    /// remote controls).
    public func mostRecentlyRenderedSessionID() -> String? {
        entries.filter { $0.value.hasRenderer }.max { $0.value.lastActive < $1.value.lastActive }?.key
    }

    @discardableResult
    public func remove(id: String) -> Bool {
        guard let entry = entries.removeValue(forKey: id) else { return false }
        for link in entry.renderers.values { link.continuation.finish() }
        invitations = invitations.filter { $0.value.sessionID != id }
        guestPasses = guestPasses.filter { $0.value.sessionID != id }
        notify(id)
        return true
    }

    /// Applies an intent (from renderer `from`, when it came over a socket); on success sends
    /// the commands to the renderers (if any) and returns them. A refusal goes to the renderer
    /// that asked only. In a group, a pause snaps every renderer to the same frame and the
    /// shared timeline is anchored again.
    public func apply(
        _ intent: PlaybackIntent, to id: String, replyTo: Int? = nil, from rendererID: UUID? = nil
    ) -> Result<[RendererCommand], PlaybackRefusal>? {
        guard var entry = entries[id] else { return nil }
        let before = entry.session.currentTime
        var result = entry.session.handle(intent)
        if entry.group != nil, case .success(var commands) = result {
            commands += groupChanged(&entry, sessionTimeBefore: before)
            result = .success(commands)
        }
        entry.lastActive = clock.now
        entries[id] = entry
        announceInterstitials(of: id)
        switch result {
        case .success(let commands):
            send(.commands(commands, replyTo: replyTo), to: id)
        case .failure(let refusal):
            send(.refused(entry.session.explanation(of: refusal), replyTo: replyTo), to: id, only: rendererID)
        }
        sendState(to: id)
        notify(id)
        return result
    }

    /// Gives every open session of `assetID` these interstitial events (after an author changed
    /// them) and sends each its new state, so the page's timeline marks update at once.
    public func setInterstitialEvents(_ events: [InterstitialEvent], forAsset assetID: String) {
        for (id, var entry) in entries where entry.session.assetID == assetID {
            entry.session.setStreamInterstitialEvents(events)
            entries[id] = entry
            sendState(to: id)
        }
    }

    /// Takes a renderer report (about `item`, when the renderer names it: one about an item
    /// no longer playing is dropped); sends any resulting commands and, when something a
    /// viewer would notice changed, the new state.
    func report(_ report: RendererReport, about item: RenderedItem? = nil, to id: String, from rendererID: UUID? = nil) {
        guard var entry = entries[id] else { return }
        // In a group, only the clock participant's reports move the session; every renderer's
        // stalls and recoveries hold and release the group.
        if entry.group != nil, let rendererID, !groupAccepts(report, from: rendererID, in: &entry, id: id) { return }
        let before = entry.session.status
        let beforeInterstitial = entry.session.activeInterstitial
        let beforePermissions = entry.session.permissions
        let sessionTimeBefore = entry.session.currentTime
        var commands = entry.session.handle(report, about: item)
        if entry.group != nil, before != entry.session.status || beforeInterstitial != entry.session.activeInterstitial {
            commands += groupChanged(&entry, sessionTimeBefore: sessionTimeBefore)
        }
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
            sendState(to: id)
            if !endedNow { notify(id) }
        }
    }

    /// Queues a message for the session's renderer; a renderer whose queue is full is not
    /// reading, so it is dropped (a page that reconnects gets a fresh state snapshot).
    /// Queues a message for the session's renderers (or only `only`); a renderer whose queue
    /// is full is not reading, so it is dropped (a page that reconnects gets a fresh snapshot).
    func send(_ message: OutboundRendererMessage, to id: String, only: UUID? = nil) {
        guard let renderers = entries[id]?.renderers else { return }
        for (rendererID, link) in renderers where only == nil || only == rendererID {
            if case .dropped = link.continuation.yield(message) {
                detachRenderer(rendererID, from: id)
            }
        }
    }

    /// Sends every renderer of session `id` its state now.
    func sendState(to id: String) {
        guard let entry = entries[id] else { return }
        send(.state(entry.session, group: entry.group, now: clock.now), to: id)
    }

    /// Whether `rendererID` is still one of the session's renderers (a replaced one may not drive it).
    func isAttached(_ rendererID: UUID, to id: String) -> Bool {
        entries[id]?.renderers[rendererID] != nil
    }

    /// Connects a renderer. Without a group (or without `participantID`) it replaces the
    /// session's other renderers (whose streams end); a group participant's renderer joins the
    /// others, replacing only that participant's earlier one (a reload).
    func attachRenderer(to id: String, participantID: String? = nil) -> (UUID, AsyncStream<OutboundRendererMessage>)? {
        guard var entry = entries[id] else { return nil }
        let participant = entry.group == nil ? nil : participantID
        if entry.group != nil, let participant, !(entry.group?.participants.contains { $0.id == participant } ?? false) { return nil }
        for (oldID, link) in entry.renderers where participant == nil || link.participantID == participant {
            link.continuation.finish()
            entry.renderers[oldID] = nil
        }
        let (stream, continuation) = AsyncStream.makeStream(
            of: OutboundRendererMessage.self, bufferingPolicy: .bufferingOldest(Self.rendererQueueLimit))
        let rendererID = UUID()
        entry.renderers[rendererID] = RendererLink(continuation: continuation, participantID: participant, lastHeard: clock.now)
        entry.lastActive = clock.now
        if let participant, var group = entry.group {
            // A participant who (re)connects loads first: the group waits for them.
            try? group.join(id: participant, name: "", at: clock.now)
            entry.group = group
            _ = groupChanged(&entry, sessionTimeBefore: entry.session.currentTime)
        }
        entries[id] = entry
        continuation.yield(.state(entry.session, group: entry.group, now: clock.now))
        if participant != nil {
            sendState(to: id)
            scheduleWaitExpiry(for: id)
        }
        notify(id)
        return (rendererID, stream)
    }

    func detachRenderer(_ rendererID: UUID, from id: String) {
        guard var entry = entries[id], let link = entry.renderers.removeValue(forKey: rendererID) else { return }
        link.continuation.finish()
        entry.lastActive = clock.now
        if let participant = link.participantID, var group = entry.group {
            // Leaving (even the starter) never ends the group; nobody waits for them any more.
            group.leave(id: participant)
            entry.group = group
            publishGroupChange(&entry, id: id)
        }
        entries[id] = entry
        notify(id)
        guard !entry.hasRenderer else { return }
        let (grace, clock) = (rendererGracePeriod, clock)
        Task { [weak self] in
            try? await clock.sleep(for: grace)
            await self?.dropIfStillDetached(id, since: entry.lastActive)
        }
    }

    /// Drops a session that has had no renderer and no activity since `since`.
    private func dropIfStillDetached(_ id: String, since: Date) {
        guard let entry = entries[id], !entry.hasRenderer, entry.lastActive <= since else { return }
        entries.removeValue(forKey: id)
        invitations = invitations.filter { $0.value.sessionID != id }
        notify(id)
    }

    private func dropIdle() {
        let cutoff = clock.now.addingTimeInterval(-idleTimeout)
        for (id, entry) in entries where !entry.hasRenderer && entry.lastActive < cutoff {
            entries.removeValue(forKey: id)
            invitations = invitations.filter { $0.value.sessionID != id }
        }
    }
}

/// A change to a playback session that something outside the session follows.
public enum PlaybackSessionChange: Sendable {
    /// The session now, whether a renderer is attached, and how many watch it together (nil alone).
    case changed(PlaybackSession, rendererAttached: Bool, watching: Int?)
    case removed(String)
}
