import Foundation
import MediaTesting
import Testing

@testable import MarqueeServer
@testable import Playback

/// The server side of watching together: one session, a renderer per participant, intents
/// from anyone applied to all, a pause that snaps everyone to one frame, waits on the clock.
@Suite("Watch together in the sessions")
struct WatchTogetherSessionTests {
    func playing(clock: ManualClock) async throws -> (PlaybackSessions, UUID, AsyncStream<OutboundRendererMessage>) {
        let sessions = PlaybackSessions(clock: clock)
        var session = PlaybackSession(id: "s1", assetID: "a1", metadata: DisplayMetadata(title: "Film"))
        _ = session.handle(.ready(duration: 600))
        await sessions.insert(session)
        let (renderer, stream) = try #require(await sessions.attachRenderer(to: "s1"))
        _ = await sessions.apply(.play, to: "s1")
        await sessions.report(.playing, to: "s1", from: renderer)
        return (sessions, renderer, stream)
    }

    @Test func startingMakesTheStarterAParticipantAndALinkOthersJoinBy() async throws {
        let clock = ManualClock()
        let (sessions, _, _) = try await playing(clock: clock)
        let (aki, invitation) = try await sessions.startGroup(sessionID: "s1", name: "Aki")
        #expect(await sessions.group(sessionID: "s1")?.participants.map(\.name) == ["Aki"])
        #expect(await sessions.invitation(invitation.token)?.sessionID == "s1")
        let (sessionID, bea) = try await sessions.joinGroup(token: invitation.token, name: "  Bea\n")
        #expect(sessionID == "s1" && bea != aki)
        let (_, beaStream) = try #require(await sessions.attachRenderer(to: "s1", participantID: bea))
        let group = try #require(await sessions.group(sessionID: "s1"))
        #expect(group.participants.map(\.name) == ["Aki", "Bea"])
        #expect(group.waitingFor.map(\.name) == ["Bea"], "the group waits for Bea's renderer to load")
        // Bea's renderer gets the group in its first state.
        var iterator = beaStream.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.state?.group?.participants.count == 2)
        // Withdrawn, the link stops working; Bea stays.
        #expect(await sessions.revokeInvitations(sessionID: "s1") == 1)
        await #expect(throws: GroupJoinError.invitationNotValid) { try await sessions.joinGroup(token: invitation.token, name: "Cy") }
        #expect(await sessions.group(sessionID: "s1")?.participants.count == 2)
    }

    @Test func anyonesPauseStopsEveryRendererOnTheTimelinesFrame() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 3_000_000))
        let (sessions, _, akiStream) = try await playing(clock: clock)
        let (_, invitation) = try await sessions.startGroup(sessionID: "s1", name: "Aki")
        let (_, bea) = try await sessions.joinGroup(token: invitation.token, name: "Bea")
        let (beaRenderer, beaStream) = try #require(await sessions.attachRenderer(to: "s1", participantID: bea))
        await sessions.report(.ready(duration: 600), to: "s1", from: beaRenderer)
        let moving = try #require(await sessions.group(sessionID: "s1"))
        #expect(moving.timeline.rate == 1 && !moving.isSuspended)
        clock.advance(by: .seconds(12))
        // Bea pauses: the timeline stops where it had got to, and both renderers are told to go there.
        let result = await sessions.apply(.pause, to: "s1", from: beaRenderer)
        let commands = try #require(try? result?.get())
        let held = try #require(await sessions.group(sessionID: "s1")).timeline
        #expect(held.rate == 0)
        #expect(abs(held.time - moving.timeline.position(at: clock.now)) < 0.001)
        #expect(commands.contains(.seek(to: held.time)))
        for stream in [akiStream, beaStream] {
            var seen = false
            for await message in stream {
                if message.commands?.contains(where: { $0.command == "seek" && $0.time == held.time }) == true { seen = true }
                if let timeline = message.state?.group?.timeline, timeline.rate == 0, timeline.time == held.time { break }
            }
            #expect(seen, "every renderer is told the frame")
        }
    }

    @Test func aStalledParticipantHoldsTheGroupUntilTheWaitLimitOnTheClock() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 3_000_000))
        let (sessions, _, _) = try await playing(clock: clock)
        let (_, invitation) = try await sessions.startGroup(sessionID: "s1", name: "Aki")
        let (_, bea) = try await sessions.joinGroup(token: invitation.token, name: "Bea")
        let (beaRenderer, _) = try #require(await sessions.attachRenderer(to: "s1", participantID: bea))
        await sessions.report(.playing, to: "s1", from: beaRenderer)
        await sessions.report(.stalled, to: "s1", from: beaRenderer)
        #expect(await sessions.group(sessionID: "s1")?.waitingFor.map(\.name) == ["Bea"])
        #expect(await sessions.group(sessionID: "s1")?.timeline.rate == 0)
        #expect(await sessions.session(id: "s1")?.status == .playing, "a participant's stall is the group's wait, not the session's")
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(WatchGroup.waitLimit))
        try await eventually("the group plays on without Bea") { await sessions.group(sessionID: "s1")?.timeline.rate == 1 }
        #expect(await sessions.group(sessionID: "s1")?.participants.last?.state == .behind)
    }

    @Test func theStarterLeavingKeepsTheGroupAndOnlyTheClockParticipantMovesTheSession() async throws {
        let clock = ManualClock()
        let (sessions, akiRenderer, _) = try await playing(clock: clock)
        let (_, invitation) = try await sessions.startGroup(sessionID: "s1", name: "Aki")
        let (_, bea) = try await sessions.joinGroup(token: invitation.token, name: "Bea")
        let (beaRenderer, _) = try #require(await sessions.attachRenderer(to: "s1", participantID: bea))
        await sessions.report(.playing, to: "s1", from: beaRenderer)
        await sessions.report(.time(40), to: "s1", from: beaRenderer)
        #expect(await sessions.session(id: "s1")?.currentTime != 40, "Bea's clock is not the session's while Aki watches")
        await sessions.detachRenderer(akiRenderer, from: "s1")
        let group = try #require(await sessions.group(sessionID: "s1"))
        #expect(group.present.map(\.name) == ["Bea"])
        #expect(group.clockParticipantID == bea)
        await sessions.report(.time(41), to: "s1", from: beaRenderer)
        #expect(await sessions.session(id: "s1")?.currentTime == 41)
        #expect(await sessions.snapshot(id: "s1")?.group?.watching == 1)
    }
}
