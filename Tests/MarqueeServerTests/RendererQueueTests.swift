import Foundation
import Testing

@testable import MarqueeServer
@testable import Playback

/// The server never buffers without limit for a renderer that does not read, frees sessions
/// whose renderer went away, and lets only the current renderer drive a session.
@Suite("Renderer queues and session lifetime")
struct RendererQueueTests {
    func sessions(grace: Duration = .seconds(120)) async -> PlaybackSessions {
        let sessions = PlaybackSessions(rendererGracePeriod: grace)
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
        let sessions = await sessions(grace: .milliseconds(150))
        let (gone, _) = try #require(await sessions.attachRenderer(to: "s1"))
        await sessions.detachRenderer(gone, from: "s1")
        #expect(await sessions.session(id: "s1") != nil)
        // Freed soon after the grace period (waiting longer only on a loaded machine).
        let deadline = ContinuousClock.now + .seconds(10)
        while await sessions.session(id: "s1") != nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(await sessions.session(id: "s1") == nil)
    }

    @Test func aRendererThatComesBackInTimeKeepsTheSession() async throws {
        let sessions = await sessions(grace: .milliseconds(300))
        let (gone, _) = try #require(await sessions.attachRenderer(to: "s1"))
        await sessions.detachRenderer(gone, from: "s1")
        let back = await sessions.attachRenderer(to: "s1")
        #expect(back != nil)
        try await Task.sleep(for: .milliseconds(800))
        #expect(await sessions.session(id: "s1") != nil)
    }
}
