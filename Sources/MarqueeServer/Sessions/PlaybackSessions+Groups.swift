import Accounts
import Clocks
public import Foundation
public import Playback

/// An invitation to watch a session together: a link's secret, for one group, until it expires
/// or is revoked.
public struct GroupInvitation: Sendable, Hashable {
    public var token: String
    public var sessionID: String
    public var expires: Date

    /// How long a new invitation lasts.
    public static let lifetime: TimeInterval = 6 * 3600
}

/// Why a person could not start or join a group.
public enum GroupJoinError: Error, Sendable, Hashable {
    /// No session with that ID.
    case noSession
    /// The link is not an invitation (never was, expired, or revoked).
    case invitationNotValid
    /// The group already has `WatchGroup.maximumParticipants` people.
    case full
}

/// Watching together (issue 28): a group is one session with a renderer per participant.
extension PlaybackSessions {
    /// Starts a group on session `id` (or returns the one running) with its first participant,
    /// the person who asked, and a fresh invitation. The session's current renderer (the
    /// starter's page) becomes that participant's.
    public func startGroup(sessionID id: String, name: String) throws(GroupJoinError) -> (participantID: String, invitation: GroupInvitation) {
        guard var entry = entries[id] else { throw .noSession }
        let now = clock.now
        let isNew = entry.group == nil
        var group = entry.group ?? WatchGroup(id: UUID().uuidString.lowercased(), timeline: GroupTimeline(time: entry.session.currentTime, rate: 0, date: now))
        let participantID = UUID().uuidString.lowercased()
        do { try group.join(id: participantID, name: Self.participantName(name, in: group), at: now) } catch { throw .full }
        // The page that asked is playing already: it watches, and its renderer is now theirs.
        if let (rendererID, _) = entry.renderers.first(where: { $0.value.participantID == nil }) {
            entry.renderers[rendererID]?.participantID = participantID
            group.recovered(id: participantID)
        }
        entry.group = group
        publishGroupChange(&entry, id: id)
        let invitation = newInvitation(for: id, at: now)
        notify(id)
        if isNew { sweepSilentRenderers(in: id) }
        return (participantID, invitation)
    }

    /// A new invitation link for the group on session `id` (earlier ones stay valid until revoked).
    func newInvitation(for id: String, at now: Date) -> GroupInvitation {
        let token = Self.randomSecret()
        let invitation = GroupInvitation(token: token, sessionID: id, expires: now.addingTimeInterval(GroupInvitation.lifetime))
        invitations[token] = invitation
        return invitation
    }

    /// Ends every invitation to the group on session `id`. People with accounts who joined
    /// stay; guests the invitations let in (`GuestPass`) lose their pass and their player.
    public func revokeInvitations(sessionID id: String) -> Int {
        let revoked = Set(invitations.filter { $0.value.sessionID == id }.keys)
        invitations = invitations.filter { $0.value.sessionID != id }
        endGuestPasses(from: revoked)
        return revoked.count
    }

    /// The session an invitation leads to, if it is still valid.
    public func invitation(_ token: String) -> GroupInvitation? {
        guard let invitation = invitations[token], invitation.expires > clock.now, entries[invitation.sessionID]?.group != nil else { return nil }
        return invitation
    }

    /// Adds a person to the group an invitation leads to; their page then connects its
    /// renderer with the participant ID, and the group waits for it to load.
    /// A guest joins with their pass's `guestSecret`: it must be a pass from this invitation.
    public func joinGroup(
        token: String, name: String, guestSecret: String? = nil
    ) throws(GroupJoinError) -> (
        sessionID: String, participantID: String
    ) {
        guard let invitation = invitation(token), var entry = entries[invitation.sessionID], var group = entry.group else {
            throw .invitationNotValid
        }
        if let guestSecret, guestPasses[guestSecret]?.invitationToken != token { throw .invitationNotValid }
        let participantID = UUID().uuidString.lowercased()
        do { try group.join(id: participantID, name: Self.participantName(name, in: group), at: clock.now) } catch { throw .full }
        // Nobody waits for a renderer that has not connected yet: they count once it does.
        group.leave(id: participantID)
        entry.group = group
        entries[invitation.sessionID] = entry
        if let guestSecret { guestJoined(guestSecret, as: participantID) }
        sendState(to: invitation.sessionID)
        notify(invitation.sessionID)
        return (invitation.sessionID, participantID)
    }

    /// A name to show: what the person gave (trimmed, at most 40 characters), else "Guest N".
    static func participantName(_ name: String, in group: WatchGroup) -> String {
        let trimmed = String(name.trimmingCharacters(in: .whitespacesAndNewlines).filter { !$0.isNewline }.prefix(40))
        return trimmed.isEmpty ? "Guest \(group.participants.count + 1)" : trimmed
    }

    /// After the group changed outside an intent or a report (someone joined, left, stalled or
    /// recovered, a wait ran out): anchors the timeline again, stores `entry` as session `id`'s,
    /// and sends every renderer the commands that keep them together and the new state.
    func publishGroupChange(_ entry: inout Entry, id: String) {
        let commands = groupChanged(&entry, sessionTimeBefore: entry.session.currentTime)
        entries[id] = entry
        if !commands.isEmpty { send(.commands(commands, replyTo: nil), to: id) }
        sendState(to: id)
    }

    /// After the session or the group's waits changed: anchors the shared timeline again and
    /// returns the commands that keep renderers together (a pause snaps everyone to one frame).
    func groupChanged(_ entry: inout Entry, sessionTimeBefore: Double) -> [RendererCommand] {
        guard var group = entry.group else { return [] }
        let now = clock.now
        var commands: [RendererCommand] = []
        let playing = entry.session.status == .playing && entry.session.desiresPlayback && entry.session.activeInterstitial == nil
        var time: Double
        if entry.session.currentTime != sessionTimeBefore || entry.session.activeInterstitial != nil {
            // A seek, a skip or the end of a break: the session says where.
            time = entry.session.currentTime
        } else {
            time = group.timeline.position(at: now)
            if let duration = entry.session.duration { time = min(time, duration) }
        }
        let stopping = group.timeline.rate > 0 && !(playing && !group.isSuspended)
        if stopping, entry.session.activeInterstitial == nil, abs(time - entry.session.currentTime) > 0.001,
            case .success(let snap) = entry.session.handle(.seek(to: time))
        {
            // Everyone stops on the same frame: where the shared timeline was at the pause.
            commands += snap
            time = entry.session.currentTime
        }
        group.anchor(time: time, rate: entry.session.rate, playing: playing, at: now)
        entry.group = group
        return commands
    }

    /// Whether a renderer's report goes on to the session. Only the clock participant's
    /// reports move the session; anyone's stall, autoplay refusal or recovery holds and
    /// releases the group.
    func groupAccepts(_ report: RendererReport, from rendererID: UUID, in entry: inout Entry, id: String) -> Bool {
        guard var group = entry.group, let participant = entry.renderers[rendererID]?.participantID else { return true }
        let isClock = group.clockParticipantID == participant
        let now = clock.now
        var waitChanged = false
        switch report {
        case .stalled:
            waitChanged = group.stalled(id: participant, at: now)
        case .autoplayBlocked:
            waitChanged = group.stalled(id: participant, at: now, needsAction: true)
        case .playing:
            waitChanged = group.recovered(id: participant, playing: true)
        case .ready:
            waitChanged = group.recovered(id: participant, playing: false)
        default:
            break
        }
        if waitChanged {
            entry.group = group
            publishGroupChange(&entry, id: id)
            notify(id)
            scheduleWaitExpiry(for: id)
        }
        switch report {
        case .stalled, .autoplayBlocked: return false
        case .ready: return isClock || entry.session.duration == nil
        case .volume: return false  // each device's own
        default: return isClock
        }
    }

    /// Wakes when the group's oldest wait reaches `WatchGroup.waitLimit`, on the sessions' clock.
    func scheduleWaitExpiry(for id: String) {
        guard let expiry = entries[id]?.group?.nextWaitExpiry else { return }
        let clock = clock
        let wait = Duration.milliseconds(max(0, Int64((expiry.timeIntervalSince(clock.now) * 1000).rounded(.up))))
        Task { [weak self] in
            try? await clock.sleep(for: wait)
            await self?.expireGroupWaits(id)
        }
    }

    /// Plays on without anyone waited for past the limit (they catch up by themselves).
    func expireGroupWaits(_ id: String) {
        guard var entry = entries[id], var group = entry.group else { return }
        if group.expireWaits(at: clock.now) {
            entry.group = group
            publishGroupChange(&entry, id: id)
            notify(id)
        }
        scheduleWaitExpiry(for: id)
    }

    /// The group on session `id`, if one was started.
    public func group(sessionID id: String) -> WatchGroup? { entries[id]?.group }
}

extension PlaybackSessions {
    /// Another invitation link to the group on session `id`.
    public func invite(sessionID id: String) -> GroupInvitation { newInvitation(for: id, at: clock.now) }
}

extension PlaybackSessions {
    /// A participant's renderer silent this long is gone (a frozen page, a lost network): the
    /// group stops counting them, as if their socket had closed.
    public static let groupSilenceLimit: TimeInterval = 15

    /// Notes that `rendererID` of session `id` was heard from (any frame, or a clock probe).
    func heard(_ rendererID: UUID, in id: String) {
        guard entries[id]?.group != nil, entries[id]?.renderers[rendererID] != nil else { return }
        entries[id]?.renderers[rendererID]?.lastHeard = clock.now
    }

    /// Lets go of group renderers silent past `groupSilenceLimit`; checks again while the group lasts.
    func sweepSilentRenderers(in id: String) {
        guard let entry = entries[id], entry.group != nil else { return }
        let cutoff = clock.now.addingTimeInterval(-Self.groupSilenceLimit)
        for (rendererID, link) in entry.renderers where link.participantID != nil && link.lastHeard < cutoff {
            detachRenderer(rendererID, from: id)
        }
        let clock = clock
        Task { [weak self] in
            try? await clock.sleep(for: .seconds(5))
            await self?.sweepSilentRenderers(in: id)
        }
    }
}
