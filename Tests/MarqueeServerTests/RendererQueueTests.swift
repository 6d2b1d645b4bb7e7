import Foundation
import MediaTesting
import Testing

@testable import MarqueeServer
@testable import Playback

/// The server never buffers without limit for a renderer that does not read, frees sessions
/// whose renderer went away, and lets only the current renderer drive a session.
@Suite("Renderer queues and session lifetime")
struct RendererQueueTests {
    func sessions(grace: Duration = .seconds(120), clock: ManualClock = ManualClock()) async -> PlaybackSessions {
        let sessions = PlaybackSessions(rendererGracePeriod: grace, clock: clock)
        var session = PlaybackSession(id: "s1", assetID: "a1", metadata: DisplayMetadata(title: "Clip"))
        _ = session.handle(.ready(duration: 60))
        await sessions.insert(session)
        return sessions
    }

    @Test func aRendererThatDoesNotReadIsDroppedNotBuffered() async throws {
        let sessions = await sessions()
        let (rendererID, stream) = try #require(await sessions.attachRenderer(to: "s1"))
        // Each intent queues commands and a state snapshot; nobody reads them.
        for _ in 0..<2000 { _ = await sessions.apply(.togglePlayPause, to: "s1") }
        #expect(await sessions.isAttached(rendererID, to: "s1") == false)
        var queued = 0
        for await _ in stream { queued += 1 }  // finishes: the renderer was dropped
        #expect(queued <= PlaybackSessions.rendererQueueLimit)
        // The session itself is still there for a renderer that reconnects.
        #expect(await sessions.session(id: "s1") != nil)
        #expect(await sessions.attachRenderer(to: "s1") != nil)
    }

    @Test func aReplacedRendererNoLongerDrivesTheSession() async throws {
        let sessions = await sessions()
        let (first, firstStream) = try #require(await sessions.attachRenderer(to: "s1"))
        let (second, _) = try #require(await sessions.attachRenderer(to: "s1"))
        #expect(await sessions.isAttached(first, to: "s1") == false)
        #expect(await sessions.isAttached(second, to: "s1"))
        var count = 0
        for await _ in firstStream { count += 1 }  // the first stream has ended
        #expect(count == 1)  // only the state snapshot sent when it attached
    }

    @Test func aSessionWhoseRendererLeftIsFreedAfterTheGracePeriod() async throws {
        let clock = ManualClock()
        let sessions = await sessions(grace: .seconds(600), clock: clock)
        let (gone, _) = try #require(await sessions.attachRenderer(to: "s1"))
        await sessions.detachRenderer(gone, from: "s1")
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(599))
        #expect(await sessions.session(id: "s1") != nil)
        clock.advance(by: .seconds(1))
        try await eventually("the grace period's check to free the session") { await sessions.session(id: "s1") == nil }
    }

    @Test func aRendererThatComesBackInTimeKeepsTheSession() async throws {
        let clock = ManualClock()
        let sessions = await sessions(grace: .seconds(600), clock: clock)
        let (gone, _) = try #require(await sessions.attachRenderer(to: "s1"))
        await sessions.detachRenderer(gone, from: "s1")
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(300))
        let back = await sessions.attachRenderer(to: "s1")
        #expect(back != nil)
        clock.advance(by: .seconds(600))
        // The grace period's check woke (the clock has no sleeper left); give it a moment of
        // real time to run, as the other test's check frees its session within it.
        #expect(clock.sleeperCount == 0)
        try await Task.sleep(for: .milliseconds(50))
        #expect(await sessions.session(id: "s1") != nil)
    }
}
