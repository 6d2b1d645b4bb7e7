public import Foundation

/// Where a group's playback is at any moment, as `AVPlaybackCoordinator` shares it: at
/// `date` (on the server's clock) the item was at `time` and moves on at `rate` (0 while
/// paused or waiting). Every participant's renderer follows it: it measures its clock's offset
/// to the server, computes where the item is now, and corrects its drift.
public struct GroupTimeline: Sendable, Hashable, Codable {
    public var time: Double
    public var rate: Double
    public var date: Date

    public init(time: Double, rate: Double, date: Date) {
        self.time = time
        self.rate = rate
        self.date = date
    }

    /// Where the item is at `now` (before `date`, where it will start from).
    public func position(at now: Date) -> Double {
        time + max(0, now.timeIntervalSince(date)) * rate
    }
}

/// One person watching in a group, with their renderer.
public struct GroupParticipant: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Hashable, Codable {
        /// Playing along (or paused with everyone).
        case watching
        /// Loading or stalled: the group waits for them (up to `WatchGroup.waitLimit`).
        case waiting
        /// Waited for too long: the group plays on without them until they catch up.
        case behind
        /// No renderer connected (closed the tab, lost the network); kept to come back.
        case away
    }

    public var id: String
    public var name: String
    public var state: State
    /// Since when they have been waiting (for the wait limit).
    public var waitingSince: Date?
    /// Their browser wants a press before it plays (autoplay refused): only playing ends the wait.
    public var needsAction = false
    public var joinedAt: Date

    public init(id: String, name: String, state: State = .waiting, waitingSince: Date? = nil, joinedAt: Date) {
        self.id = id
        self.name = name
        self.state = state
        self.waitingSince = waitingSince
        self.joinedAt = joinedAt
    }
}

/// Several people watching one playback session together (SharePlay's job): who is in it,
/// the timeline every renderer follows, and who the group is waiting for.
///
/// The session stays the one authority on what plays (intents from any participant go to it);
/// the group adds what several renderers need: a shared timeline re-anchored at every change,
/// *suspensions* (a participant who stalls or is still loading makes everyone wait, as
/// `AVPlaybackCoordinator` does, until they recover or `waitLimit` passes), and presence.
/// Leaving — even for the person who started it — never ends the group.
public struct WatchGroup: Sendable, Hashable {
    /// How long the group waits for one participant before playing on without them.
    public static let waitLimit: TimeInterval = 8
    /// How far ahead a start is scheduled, so every renderer starts the same frame together.
    public static let startLead: TimeInterval = 0.3
    /// Most people in one group.
    public static let maximumParticipants = 16

    public let id: String
    public private(set) var participants: [GroupParticipant] = []
    public private(set) var timeline: GroupTimeline

    public init(id: String, timeline: GroupTimeline) {
        self.id = id
        self.timeline = timeline
    }

    /// Whose lack of progress holds the group (waiting, within the limit).
    public var waitingFor: [GroupParticipant] { participants.filter { $0.state == .waiting } }

    /// Whether the group is held for someone.
    public var isSuspended: Bool { !waitingFor.isEmpty }

    /// Participants with a renderer (watching, waiting or behind).
    public var present: [GroupParticipant] { participants.filter { $0.state != .away } }

    /// The participant whose renderer's reports move the session's clock (the earliest joined
    /// who is watching; else anyone present).
    public var clockParticipantID: String? {
        (participants.first { $0.state == .watching } ?? participants.first { $0.state != .away })?.id
    }

    /// Adds a participant (waiting until their renderer is ready), or marks one who comes back.
    public mutating func join(id: String, name: String, at now: Date) throws(WatchGroupError) {
        if let index = participants.firstIndex(where: { $0.id == id }) {
            participants[index].state = .waiting
            participants[index].waitingSince = now
            return
        }
        guard present.count < Self.maximumParticipants else { throw .full }
        participants.append(GroupParticipant(id: id, name: name, state: .waiting, waitingSince: now, joinedAt: now))
    }

    /// Their renderer went away: the group no longer waits for them.
    public mutating func leave(id: String) {
        guard let index = participants.firstIndex(where: { $0.id == id }) else { return }
        participants[index].state = .away
        participants[index].waitingSince = nil
    }

    /// Their renderer stalled or is loading, or (`needsAction`) their browser refused to play
    /// without a press: the group waits. Returns whether the wait changed.
    @discardableResult
    public mutating func stalled(id: String, at now: Date, needsAction: Bool = false) -> Bool {
        guard let index = participants.firstIndex(where: { $0.id == id }), participants[index].state != .away else { return false }
        let before = participants[index]
        // The wait is counted from when this need arose (a press asked for while still loading too).
        if participants[index].state != .waiting || (needsAction && !participants[index].needsAction) { participants[index].waitingSince = now }
        participants[index].state = .waiting
        participants[index].needsAction = participants[index].needsAction || needsAction
        return participants[index] != before
    }

    /// Their renderer can play again (`playing`: it does play). A participant who needs a
    /// press stays waited for until they play. Returns whether the wait changed.
    @discardableResult
    public mutating func recovered(id: String, playing: Bool = true) -> Bool {
        guard let index = participants.firstIndex(where: { $0.id == id }), participants[index].state == .waiting || participants[index].state == .behind
        else { return false }
        if participants[index].needsAction && !playing { return false }
        participants[index].state = .watching
        participants[index].waitingSince = nil
        participants[index].needsAction = false
        return true
    }

    /// Stops waiting for anyone who has been waiting for `waitLimit` at `now` (they play on
    /// to catch up, marked behind). Returns whether anyone was let go.
    public mutating func expireWaits(at now: Date) -> Bool {
        var changed = false
        for index in participants.indices where participants[index].state == .waiting {
            if let since = participants[index].waitingSince, now.timeIntervalSince(since) >= Self.waitLimit {
                participants[index].state = .behind
                participants[index].waitingSince = nil
                changed = true
            }
        }
        return changed
    }

    /// The earliest moment a wait expires, for the server's timer.
    public var nextWaitExpiry: Date? {
        participants.compactMap { $0.state == .waiting ? $0.waitingSince?.addingTimeInterval(Self.waitLimit) : nil }.min()
    }

    /// The timeline after the session changed at `now`: held (rate 0) where it is while the
    /// group waits or the session is not playing; otherwise moving from `time` at `rate`,
    /// starting `startLead` from now when it was still, so every renderer starts together.
    public mutating func anchor(time: Double, rate: Double, playing: Bool, at now: Date) {
        let moving = playing && !isSuspended && rate > 0
        if moving {
            let wasStill = timeline.rate == 0
            timeline = GroupTimeline(time: time, rate: rate, date: wasStill ? now.addingTimeInterval(Self.startLead) : now)
        } else {
            timeline = GroupTimeline(time: time, rate: 0, date: now)
        }
    }
}

/// Why a group could not take someone.
public enum WatchGroupError: Error, Sendable, Hashable {
    /// `WatchGroup.maximumParticipants` are already watching.
    case full
}
