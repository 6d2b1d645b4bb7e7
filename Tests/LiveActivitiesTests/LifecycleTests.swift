import Foundation
import GRDB
import JSONDocument
import MediaTesting
import Testing

@testable import LiveActivities

@Suite("Live Activity lifecycle rules")
struct LifecycleTests {
    let clock = ManualClock()

    @Test("A request starts an active activity with its attributes and content")
    func request() async throws {
        let center = try await makeCenter(clock: clock)
        let started = try await center.request(
            attributes: SampleAttributes(title: "Film"),
            content: ActivityContent(state: .init(percent: 5), relevanceScore: 0.5))
        #expect(started.state == .active)
        #expect(started.activity.type == "Sample")
        #expect(try started.activity.attributes(as: SampleAttributes.self).title == "Film")
        #expect(try started.activity.state(as: SampleAttributes.self).percent == 5)
        #expect(await center.list().map(\.activity.id) == [started.activity.id])
    }

    @Test("An update replaces the content and keeps its alert")
    func update() async throws {
        let center = try await makeCenter(clock: clock)
        let id = try await center.request(type: "Sample", attributes: .object([:]), content: content(1)).activity.id
        clock.advance(5)
        let alert = AlertConfiguration(title: "Half way", body: "50 %", sound: "default")
        #expect(try await center.update(id: id, content: content(50), alert: alert) == .applied)
        let now = try await center.snapshot(id: id)
        #expect(now.activity.content.state == state(50))
        #expect(now.activity.alert == alert)
        #expect(now.activity.alertDate == clock.now)
    }

    @Test("An update older than the last one is dropped")
    func olderTimestampDropped() async throws {
        let center = try await makeCenter(clock: clock)
        let id = try await center.request(type: "Sample", attributes: .object([:]), content: content(1)).activity.id
        clock.advance(10)
        let late = clock.now
        #expect(try await center.update(id: id, content: content(60), timestamp: late) == .applied)
        #expect(try await center.update(id: id, content: content(40), timestamp: late.addingTimeInterval(-3)) == .droppedOlderTimestamp)
        #expect(try await center.snapshot(id: id).activity.content.state == state(60))
        // An end with an older timestamp is dropped too.
        #expect(try await center.end(id: id, content: nil, timestamp: late.addingTimeInterval(-1)) == .droppedOlderTimestamp)
        #expect(try await center.snapshot(id: id).state == .active)
    }

    @Test("Updates after the end are ignored")
    func updatesAfterEndIgnored() async throws {
        let center = try await makeCenter(clock: clock)
        let id = try await center.request(type: "Sample", attributes: .object([:]), content: content(1)).activity.id
        #expect(try await center.end(id: id, content: content(100)) == .applied)
        clock.advance(1)
        #expect(try await center.update(id: id, content: content(7)) == .ignoredAfterEnd)
        #expect(try await center.end(id: id, content: content(8)) == .ignoredAfterEnd)
        let snapshot = try await center.snapshot(id: id)
        #expect(snapshot.state == .ended)
        #expect(snapshot.activity.content.state == state(100))
    }

    @Test("The stale date makes an activity stale; a later update with a new stale date makes it active again")
    func stale() async throws {
        let center = try await makeCenter(clock: clock)
        let events = await center.events()
        let id = try await center.request(
            type: "Sample", attributes: .object([:]),
            content: content(1, staleDate: clock.now.addingTimeInterval(60))
        ).activity.id
        clock.advance(59)
        #expect(await center.reconcile().isEmpty)
        clock.advance(1)
        let published = await center.reconcile()
        #expect(published.map(\.name) == ["state"])
        #expect(try await center.snapshot(id: id).state == .stale)
        try await center.update(id: id, content: content(2, staleDate: clock.now.addingTimeInterval(60)))
        #expect(try await center.snapshot(id: id).state == .active)
        var names: [String] = []
        for await event in events {
            names.append(event.name)
            if names.count == 3 { break }
        }
        #expect(names == ["started", "state", "updated"])
    }

    @Test("A content state over 4 KB is refused with the size in the message")
    func contentStateLimit() async throws {
        let center = try await makeCenter(clock: clock)
        let big = JSONValue.object(["text": .string(String(repeating: "x", count: 5000))])
        await #expect(throws: ActivityError.self) {
            try await center.request(type: "Sample", attributes: .object([:]), content: ActivityContent(state: big))
        }
        let id = try await center.request(type: "Sample", attributes: .object([:]), content: content(1)).activity.id
        do {
            try await center.update(id: id, content: ActivityContent(state: big))
            Issue.record("a 5 KB state was accepted")
        } catch let error as ActivityError {
            guard case .contentStateTooLarge(let bytes, let limit) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(bytes > 5000 && limit == 4096)
            #expect(error.description.contains("at most 4096 bytes"))
        }
        // Exactly at the limit is fine.
        let filler = 4096 - (try JSONValue.object(["text": .string("")]).data().count)
        let atLimit = JSONValue.object(["text": .string(String(repeating: "y", count: filler))])
        #expect(try atLimit.data().count == 4096)
        #expect(try await center.update(id: id, content: ActivityContent(state: atLimit)) == .applied)
    }

    @Test("Relevance orders the activities, most relevant first; ties keep the start order")
    func relevanceOrder() async throws {
        let center = try await makeCenter(clock: clock)
        let low = try await center.request(type: "Sample", attributes: .object([:]), content: content(1, relevance: 0.1)).activity.id
        clock.advance(1)
        let high = try await center.request(type: "Sample", attributes: .object([:]), content: content(1, relevance: 75)).activity.id
        clock.advance(1)
        let tie = try await center.request(type: "Sample", attributes: .object([:]), content: content(1, relevance: 0.1)).activity.id
        #expect(await center.list().map(\.activity.id) == [high, low, tie])
        try await center.update(id: tie, content: content(2, relevance: 100))
        #expect(await center.list().map(\.activity.id) == [tie, high, low])
    }

    @Test("What is live comes first: a stale or ended activity never outranks a running one, whatever its relevance")
    func liveFirst() async throws {
        let center = try await makeCenter(clock: clock)
        let stale = try await center.request(
            type: "Sample", attributes: .object([:]), content: content(1, staleDate: clock.now.addingTimeInterval(1), relevance: 100)
        ).activity.id
        let ended = try await center.request(type: "Sample", attributes: .object([:]), content: content(1, relevance: 90)).activity.id
        try await center.end(id: ended, content: nil, dismissalPolicy: .default)
        clock.advance(2)
        let running = try await center.request(type: "Sample", attributes: .object([:]), content: content(1, relevance: 1)).activity.id
        #expect(await center.list().map(\.activity.id) == [running, stale, ended])
    }

    @Test("A scheduled activity is pending until its start date")
    func pending() async throws {
        let center = try await makeCenter(clock: clock)
        let id = try await center.request(
            type: "Sample", attributes: .object([:]), content: content(0),
            start: clock.now.addingTimeInterval(600)
        ).activity.id
        #expect(try await center.snapshot(id: id).state == .pending)
        clock.advance(600)
        #expect(await center.reconcile().map(\.name) == ["started"])
        #expect(try await center.snapshot(id: id).state == .active)
    }

    @Test("Bad requests are refused with a clear reason")
    func invalid() async throws {
        let center = try await makeCenter(clock: clock)
        await #expect(throws: ActivityError.invalid("The content state must be a JSON object")) {
            try await center.request(type: "Sample", attributes: .object([:]), content: ActivityContent(state: .number(3)))
        }
        await #expect(throws: ActivityError.invalid("The attributes must be a JSON object")) {
            try await center.request(type: "Sample", attributes: .string("x"), content: content(1))
        }
        await #expect(throws: ActivityError.notFound("nope")) { try await center.update(id: "nope", content: content(1)) }
        await #expect(throws: ActivityError.self) { try await center.registerPushToken("xyz", activityID: "nope", deviceID: "d", environment: .sandbox) }
    }
}

@Suite("Dismissal policies and time limits")
struct DismissalTests {
    let clock = ManualClock()

    @Test("Default dismissal: an ended activity stays four hours, then it is dismissed")
    func defaultPolicy() async throws {
        let center = try await makeCenter(clock: clock)
        let id = try await center.request(type: "Sample", attributes: .object([:]), content: content(1)).activity.id
        let endedAt = clock.now.addingTimeInterval(30)
        clock.advance(30)
        try await center.end(id: id, content: content(100))
        #expect(try await center.snapshot(id: id).activity.dismissalDate == endedAt.addingTimeInterval(4 * 3600))
        clock.advance(4 * 3600 - 1)
        await center.reconcile()
        #expect(await center.list().map(\.activity.id) == [id])
        clock.advance(1)
        #expect(await center.reconcile().map(\.name) == ["dismissed"])
        #expect(await center.list().isEmpty)
        #expect(try await center.snapshot(id: id).state == .dismissed)
    }

    @Test("Immediate dismissal removes it at once")
    func immediate() async throws {
        let center = try await makeCenter(clock: clock)
        let events = await center.events()
        let id = try await center.request(type: "Sample", attributes: .object([:]), content: content(1)).activity.id
        try await center.end(id: id, content: nil, dismissalPolicy: .immediate)
        #expect(await center.list().isEmpty)
        var names: [String] = []
        for await event in events {
            names.append(event.name)
            if names.count == 3 { break }
        }
        #expect(names == ["started", "ended", "dismissed"])
    }

    @Test("after(date) dismisses at the date, or after four hours when the date is later")
    func afterDate() async throws {
        let end = Date(timeIntervalSince1970: 1_000_000)
        #expect(DismissalPolicy.after(end.addingTimeInterval(600)).dismissalDate(endedAt: end) == end.addingTimeInterval(600))
        #expect(DismissalPolicy.after(end.addingTimeInterval(9 * 3600)).dismissalDate(endedAt: end) == end.addingTimeInterval(4 * 3600))
        #expect(DismissalPolicy.after(end.addingTimeInterval(-60)).dismissalDate(endedAt: end) == end)
        #expect(DismissalPolicy.immediate.dismissalDate(endedAt: end) == end)

        let center = try await makeCenter(clock: clock)
        let id = try await center.request(type: "Sample", attributes: .object([:]), content: content(1)).activity.id
        try await center.end(id: id, content: nil, dismissalPolicy: .after(clock.now.addingTimeInterval(90)))
        clock.advance(89)
        await center.reconcile()
        #expect(try await center.snapshot(id: id).state == .ended)
        clock.advance(1)
        await center.reconcile()
        #expect(try await center.snapshot(id: id).state == .dismissed)
    }

    @Test("An activity still active after eight hours is ended by the system and dismissed four hours later")
    func eightHourLimit() async throws {
        let center = try await makeCenter(clock: clock)
        let start = clock.now
        let id = try await center.request(type: "Sample", attributes: .object([:]), content: content(1)).activity.id
        clock.advance(8 * 3600 - 1)
        try await center.update(id: id, content: content(2))
        #expect(try await center.snapshot(id: id).state == .active)
        clock.advance(1)
        #expect(await center.reconcile().map(\.name) == ["ended"])
        let ended = try await center.snapshot(id: id)
        #expect(ended.state == .ended)
        #expect(ended.activity.endedBySystem)
        #expect(ended.activity.endedAt == start.addingTimeInterval(8 * 3600))
        #expect(ended.activity.dismissalDate == start.addingTimeInterval(12 * 3600))
        #expect(try await center.update(id: id, content: content(3)) == .ignoredAfterEnd)
    }

    @Test("An update arriving past eight hours, before any reconcile, finds the activity ended")
    func lateUpdateAfterLimit() async throws {
        let center = try await makeCenter(clock: clock)
        let id = try await center.request(type: "Sample", attributes: .object([:]), content: content(1)).activity.id
        clock.advance(9 * 3600)
        #expect(try await center.update(id: id, content: content(3)) == .ignoredAfterEnd)
        #expect(try await center.snapshot(id: id).state == .ended)
    }
}

@Suite("Activity store")
struct ActivityStoreTests {
    @Test("Activities, push tokens, push-to-start tokens and channels survive a restart")
    func survivesRestart() async throws {
        let clock = ManualClock()
        let path = temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        let token = String(repeating: "ab", count: 32)
        let id: String
        do {
            let center = try await makeCenter(clock: clock, path: path)
            id = try await center.request(
                type: "Sample", attributes: .object(["title": .string("Film")]),
                content: content(42, staleDate: clock.now.addingTimeInterval(3600), relevance: 3)
            ).activity.id
            try await center.update(id: id, content: content(43), alert: AlertConfiguration(title: "t", body: "b"))
            _ = try await center.registerPushToken(token.uppercased(), activityID: id, deviceID: "iphone-1", environment: .sandbox)
            _ = try await center.registerPushToStartToken(
                String(repeating: "cd", count: 32), deviceID: "iphone-1",
                attributesType: "Downloading", environment: .production)
            try await center.store.save(BroadcastChannel(id: "Y2hhbm5lbA==", environment: .production, storagePolicy: 1, createdAt: clock.now))
        }
        let reopened = try await makeCenter(clock: clock, path: path)
        let snapshot = try await reopened.snapshot(id: id)
        #expect(snapshot.activity.content.state == state(43))
        #expect(snapshot.activity.attributes["title"] == .string("Film"))
        #expect(snapshot.activity.alert?.title == "t")
        #expect(try await reopened.store.pushTokens(activityID: id).map(\.token) == [token])
        #expect(try await reopened.store.pushToStartTokens(deviceID: "iphone-1").map(\.attributesType) == ["Downloading"])
        #expect(try await reopened.store.channels().map(\.id) == ["Y2hhbm5lbA=="])
        // Deleting the activity takes its push tokens with it.
        try await reopened.delete(id: id)
        #expect(try await reopened.store.pushTokens(activityID: id).isEmpty)
    }

    @Test("The activity tables live beside another migrator's tables in one file")
    func sharesTheLibraryFile() async throws {
        let path = temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        // Another module's migrations first (as the library's are), then ours, then both again.
        var other = DatabaseMigratorForTest.migrator
        try other.migrate(try DatabaseQueueForTest.open(path))
        _ = try SQLiteActivityStore(url: path)
        other = DatabaseMigratorForTest.migrator
        try other.migrate(try DatabaseQueueForTest.open(path))
        _ = try SQLiteActivityStore(url: path)
    }
}
