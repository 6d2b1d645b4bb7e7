import Foundation
import Testing

@testable import Playback

@Suite("Watch together: the group's timeline, waits and presence")
struct WatchGroupTests {
    let start = Date(timeIntervalSince1970: 2_000_000)

    func group(_ names: [String] = ["Aki", "Bea"]) throws -> WatchGroup {
        var group = WatchGroup(id: "g", timeline: GroupTimeline(time: 0, rate: 0, date: start))
        for name in names {
            try group.join(id: name, name: name, at: start)
            group.recovered(id: name)
        }
        return group
    }

    @Test func theTimelineMovesAtItsRateFromItsAnchor() {
        let timeline = GroupTimeline(time: 10, rate: 1.5, date: start)
        #expect(timeline.position(at: start.addingTimeInterval(2)) == 13)
        #expect(timeline.position(at: start.addingTimeInterval(-1)) == 10, "before its start it waits at its time")
    }

    @Test func aStartIsScheduledAMomentAheadAndAPauseHoldsWhereItIs() throws {
        var group = try group()
        group.anchor(time: 5, rate: 1, playing: true, at: start)
        #expect(group.timeline == GroupTimeline(time: 5, rate: 1, date: start.addingTimeInterval(WatchGroup.startLead)))
        // Already moving: a seek re-anchors from now, with no lead.
        group.anchor(time: 30, rate: 1, playing: true, at: start.addingTimeInterval(10))
        #expect(group.timeline.date == start.addingTimeInterval(10))
        group.anchor(time: 31, rate: 1, playing: false, at: start.addingTimeInterval(11))
        #expect(group.timeline.rate == 0 && group.timeline.time == 31)
    }

    @Test func aStallSuspendsTheGroupUntilRecoveryOrTheLimit() throws {
        var group = try group()
        let changed1 = group.stalled(id: "Bea", at: start)
        #expect(changed1)
        #expect(group.isSuspended && group.waitingFor.map(\.name) == ["Bea"])
        group.anchor(time: 12, rate: 1, playing: true, at: start)
        #expect(group.timeline.rate == 0, "the timeline holds while the group waits")
        #expect(group.nextWaitExpiry == start.addingTimeInterval(WatchGroup.waitLimit))
        let changed2 = group.expireWaits(at: start.addingTimeInterval(WatchGroup.waitLimit - 0.1))
        #expect(!changed2)
        let changed3 = group.expireWaits(at: start.addingTimeInterval(WatchGroup.waitLimit))
        #expect(changed3)
        #expect(!group.isSuspended && group.participants[1].state == .behind)
        let changed4 = group.recovered(id: "Bea")
        #expect(changed4)
        #expect(group.participants[1].state == .watching)
    }

    @Test func aPersonWhoseBrowserWantsAPressIsWaitedForUntilTheyPlay() throws {
        var group = try group()
        _ = group.stalled(id: "Bea", at: start, needsAction: true)
        let changed5 = group.recovered(id: "Bea", playing: false)
        #expect(!changed5, "loaded is not enough: they must press play")
        #expect(group.isSuspended)
        let changed6 = group.recovered(id: "Bea", playing: true)
        #expect(changed6)
        #expect(!group.isSuspended)
    }

    @Test func leavingNeverEndsTheGroupAndTheClockMovesToWhoRemains() throws {
        var group = try group(["Aki", "Bea", "Cy"])
        #expect(group.clockParticipantID == "Aki")
        group.leave(id: "Aki")
        #expect(group.present.count == 2)
        #expect(group.clockParticipantID == "Bea")
        _ = group.stalled(id: "Aki", at: start)
        #expect(!group.isSuspended, "nobody waits for someone who left")
        try group.join(id: "Aki", name: "Aki", at: start)
        #expect(group.waitingFor.map(\.name) == ["Aki"], "coming back, they load first")
    }

    @Test func aGroupHasRoomForSixteen() throws {
        var group = try group((1...WatchGroup.maximumParticipants).map { "P\($0)" })
        #expect(throws: WatchGroupError.full) { try group.join(id: "late", name: "Late", at: start) }
    }
}
