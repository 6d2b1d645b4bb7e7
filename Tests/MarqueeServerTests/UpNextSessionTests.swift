import Foundation
import MediaTesting
import Testing

@testable import MarqueeServer
@testable import Playback

/// The server asks what follows an item when it ends, offers it in every snapshot, and its own
/// timer (on the sessions' clock) plays it when the countdown ends.
@Suite("Up Next as session state")
struct UpNextSessionTests {
    static let episode2 = UpNextItem(assetID: "e2", title: "S1 · E2", seriesTitle: "Show", playerURL: "/watch/e2", isReady: true)

    func endedSession(clock: ManualClock) async -> PlaybackSessions {
        let sessions = PlaybackSessions(clock: clock)
        sessions.upNextSource.set { $0 == "a1" ? Self.episode2 : nil }
        var session = PlaybackSession(id: "s1", assetID: "a1", metadata: DisplayMetadata(title: "Clip"))
        _ = session.handle(.ready(duration: 60))
        _ = session.handle(.play)
        await sessions.insert(session)
        await sessions.report(.time(59.9), to: "s1")
        await sessions.report(.ended, to: "s1")
        return sessions
    }

    /// Polls the sessions (real time, at most 10 s) until `condition` holds.
    func snapshot(_ sessions: PlaybackSessions, until condition: (SessionSnapshot) -> Bool) async throws -> SessionSnapshot {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let snapshot = await sessions.snapshot(id: "s1"), condition(snapshot) { return snapshot }
            try await Task.sleep(for: .milliseconds(2))
        }
        return try #require(await sessions.snapshot(id: "s1"))
    }

    @Test func theEndOffersTheNextEpisodeAndTheCountdownPlaysIt() async throws {
        let clock = ManualClock()
        let sessions = await endedSession(clock: clock)
        let offered = try await snapshot(sessions) { $0.upNext?.state == "offered" }
        #expect(offered.upNext?.assetID == "e2")
        #expect(offered.upNext?.secondsLeft == UpNext.countdown)
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(5))
        #expect(await sessions.snapshot(id: "s1")?.upNext?.secondsLeft == 3)
        clock.advance(by: .seconds(3))
        let chosen = try await snapshot(sessions) { $0.upNext?.state == "chosen" }
        #expect(chosen.upNext?.playerURL == "/watch/e2")
    }

    @Test func aRemoteDismissesTheOfferAndTheCountdownNoLongerPlaysIt() async throws {
        let clock = ManualClock()
        let sessions = await endedSession(clock: clock)
        _ = try await snapshot(sessions) { $0.upNext?.state == "offered" }
        let result = await sessions.apply(.upNext(.dismiss), to: "s1")
        #expect((try? result?.get()) == [])
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(20))
        try await Task.sleep(for: .milliseconds(50))  // the timer's check runs in real time; it must change nothing
        #expect(await sessions.snapshot(id: "s1")?.upNext?.state == "dismissed")
    }

    @Test func theRendererIsSentTheOffer() async throws {
        let clock = ManualClock()
        let sessions = await endedSession(clock: clock)
        let (_, stream) = try #require(await sessions.attachRenderer(to: "s1"))
        _ = try await snapshot(sessions) { $0.upNext?.state == "offered" }
        _ = await sessions.apply(.upNext(.play), to: "s1")
        var states: [String?] = []
        for await message in stream {
            if let state = message.state { states.append(state.upNext?.state) }
            if states.last == "chosen" { break }
        }
        #expect(states.contains("offered"))
        #expect(states.last == "chosen")
    }
}
