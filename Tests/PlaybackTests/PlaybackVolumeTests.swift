import Testing

@testable import Playback

/// Volume as a remote sees it: the session keeps the TV page's level and mute, turns a remote's
/// slider and mute button into one `setVolume` command, and learns what the viewer changed on
/// the page itself from the renderer's `volume` report.
@Suite("Playback session: volume")
struct PlaybackVolumeTests {
    func readySession() -> PlaybackSession {
        var session = PlaybackSessionStep.makeSession()
        _ = session.handle(.ready(duration: 60))
        return session
    }

    @Test("A remote's slider sets the level (kept within 0…1) and one command tells the renderer")
    func level() {
        var session = readySession()
        #expect(session.volume == 1 && !session.muted)
        #expect(session.handle(.setVolume(0.4)).commands == [.setVolume(level: 0.4, muted: false)])
        #expect(session.volume == 0.4)
        #expect(session.handle(.setVolume(7)).commands == [.setVolume(level: 1, muted: false)])
        #expect(session.handle(.setVolume(0)).commands == [.setVolume(level: 0, muted: true)])
        #expect(session.muted)
        #expect(session.handle(.setVolume(0.6)).commands == [.setVolume(level: 0.6, muted: false)])
        #expect(!session.muted)
    }

    @Test("Mute keeps the level; unmuting at level 0 comes back at a quarter")
    func mute() {
        var session = readySession()
        _ = session.handle(.setVolume(0.7))
        #expect(session.handle(.setMuted(true)).commands == [.setVolume(level: 0.7, muted: true)])
        #expect(session.handle(.setMuted(false)).commands == [.setVolume(level: 0.7, muted: false)])
        _ = session.handle(.setVolume(0))
        #expect(session.handle(.setMuted(false)).commands == [.setVolume(level: 0.25, muted: false)])
    }

    @Test("A level that is not a number is refused and changes nothing")
    func invalid() {
        var session = readySession()
        _ = session.handle(.setVolume(0.5))
        #expect(session.handle(.setVolume(.nan)).refusal == .invalidValue)
        #expect(session.handle(.setVolume(.infinity)).refusal == .invalidValue)
        #expect(session.volume == 0.5)
    }

    @Test("What the viewer does on the TV page is reported and becomes the session's volume, without a command back")
    func reported() {
        var session = readySession()
        #expect(session.handle(.volume(level: 0.3, muted: true)) == [])
        #expect(session.volume == 0.3 && session.muted)
        #expect(session.handle(.volume(level: 4, muted: false)) == [])
        #expect(session.volume == 1 && !session.muted)
        #expect(session.handle(.volume(level: .nan, muted: true)) == [])
        #expect(session.volume == 1 && !session.muted)
    }

    @Test("A failed session refuses volume changes like every other intent")
    func failed() {
        var session = readySession()
        _ = session.handle(.failed(message: "decoder error"))
        #expect(session.handle(.setVolume(0.2)).refusal == .failed)
    }
}
