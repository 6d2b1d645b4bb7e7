import Foundation
import Testing

@testable import Playback

@Suite("Up Next: the session's offer at the end of an item")
struct UpNextTests {
    let episode2 = UpNextItem(assetID: "e2", title: "S1 · E2", seriesTitle: "Show", playerURL: "/watch/e2", isReady: true)
    let start = Date(timeIntervalSince1970: 1_000_000)

    func ended() -> PlaybackSession {
        var session = makeSession()
        _ = session.handle(.play)
        _ = session.handle(.time(59.9))
        _ = session.handle(.ended)
        return session
    }

    @Test func anItemThatEndsOffersTheNextWithACountdown() {
        var session = ended()
        #expect(session.status == .ended)
        let outcome1 = session.offerUpNext(episode2, at: start)
        #expect(outcome1)
        #expect(session.upNext == .offered(episode2, deadline: start.addingTimeInterval(UpNext.countdown)))
        // Once per end: a second offer changes nothing.
        let outcome2 = session.offerUpNext(episode2, at: start.addingTimeInterval(3))
        #expect(!outcome2)
    }

    @Test func nothingIsOfferedBeforeTheEnd() {
        var session = makeSession()
        let outcome3 = session.offerUpNext(episode2, at: start)
        #expect(!outcome3)
        #expect(session.upNext == .none)
        let outcome4 = session.handle(.upNext(.play))
        #expect(outcome4.refusal == .noUpNext)
    }

    @Test func theCountdownChoosesTheItemWhenItsDeadlinePasses() {
        var session = ended()
        _ = session.offerUpNext(episode2, at: start)
        let outcome5 = session.advanceUpNext(to: start.addingTimeInterval(7.9))
        #expect(!outcome5)
        let outcome6 = session.advanceUpNext(to: start.addingTimeInterval(8))
        #expect(outcome6)
        #expect(session.upNext == .chosen(episode2))
    }

    @Test func aViewerPlaysItAtOnceOrDismissesIt() {
        var played = ended()
        _ = played.offerUpNext(episode2, at: start)
        let outcome7 = played.handle(.upNext(.play))
        #expect(outcome7.commands == [])
        #expect(played.upNext == .chosen(episode2))

        var dismissed = ended()
        _ = dismissed.offerUpNext(episode2, at: start)
        let outcome8 = dismissed.handle(.upNext(.dismiss))
        #expect(outcome8.commands == [])
        #expect(dismissed.upNext == .dismissed(episode2))
        // A dismissed offer's deadline no longer plays it.
        let outcome9 = dismissed.advanceUpNext(to: start.addingTimeInterval(60))
        #expect(!outcome9)
        let outcome10 = dismissed.handle(.upNext(.play))
        #expect(outcome10.refusal == .noUpNext)
    }

    @Test func anItemNotReadyIsOfferedWithoutCountdownAndCannotBePlayed() {
        var session = ended()
        var preparing = episode2
        preparing.isReady = false
        _ = session.offerUpNext(preparing, at: start)
        #expect(session.upNext == .offered(preparing, deadline: nil))
        let outcome11 = session.advanceUpNext(to: start.addingTimeInterval(3600))
        #expect(!outcome11)
        let outcome12 = session.handle(.upNext(.play))
        #expect(outcome12.refusal == .notReady)
    }

    @Test func playingTheItemAgainTakesTheOfferBackAndTheNextEndOffersAgain() {
        var session = ended()
        _ = session.offerUpNext(episode2, at: start)
        _ = session.handle(.upNext(.dismiss))
        _ = session.handle(.seek(to: 30))
        #expect(session.status != .ended)
        #expect(session.upNext == .none)
        _ = session.handle(.play)
        _ = session.handle(.time(59.9))
        _ = session.handle(.ended)
        let outcome13 = session.offerUpNext(episode2, at: start.addingTimeInterval(40))
        #expect(outcome13)
    }
}
