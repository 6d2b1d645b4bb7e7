import Foundation
import JSONDocument
import LiveActivities
import Testing

/// The `ActivityStore` contract, against SQLite and PostgreSQL.
@Suite struct ActivityStoreContractTests {
    func activity(_ id: String, createdAt: TimeInterval, percent: Double = 10) -> Activity {
        var activity = Activity(
            id: id, type: "Downloading", attributes: .object(["title": .string("Clip \(id)"), "items": .array([.number(1), .bool(true), .null])]),
            content: ActivityContent(state: .object(["percent": .double(percent)]), staleDate: date(createdAt + 600.25), relevanceScore: 0.5),
            createdAt: date(createdAt))
        activity.alert = AlertConfiguration(title: "Half way", body: "50 %", sound: "default")
        activity.alertDate = date(createdAt + 1.5)
        activity.dismissalDate = date(createdAt + 3600)
        return activity
    }

    @Test(arguments: NodeStoreKind.allCases)
    func activitiesRoundTripExactlyOldestFirst(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let store = try await database.activities()
        let later = activity("b", createdAt: 1_800_000_100)
        let earlier = activity("a", createdAt: 1_800_000_000.5)
        try await store.save(later)
        try await store.save(earlier)
        #expect(try await store.activity(id: "a") == earlier)
        #expect(try await store.activities().map(\.id) == ["a", "b"])

        var ended = later
        ended.phase = .ended
        ended.endedAt = date(1_800_000_200)
        ended.content = ActivityContent(state: .object(["percent": .number(100)]))
        try await store.save(ended)
        let other = try await database.activities()
        #expect(try await other.activity(id: "b") == ended)
        #expect(try await other.activity(id: "missing") == nil)

        try await store.save(ActivityPushToken(token: "t1", activityID: "b", deviceID: "phone", environment: .sandbox, createdAt: date(1_800_000_300)))
        try await store.deleteActivity(id: "b")
        #expect(try await store.activities().map(\.id) == ["a"])
        #expect(try await store.pushTokens(activityID: "b").isEmpty)
    }

    @Test(arguments: NodeStoreKind.allCases)
    func pushTokensAndTheirBackoff(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let store = try await database.activities()
        try await store.save(activity("a", createdAt: 1_800_000_000))
        let first = ActivityPushToken(token: "t1", activityID: "a", deviceID: "phone", environment: .production, createdAt: date(1_800_000_001))
        let second = ActivityPushToken(token: "t2", activityID: "a", deviceID: "tablet", environment: .sandbox, createdAt: date(1_800_000_002))
        try await store.save(second)
        try await store.save(first)
        #expect(try await store.pushTokens(activityID: "a") == [first, second])
        #expect(try await store.pushTokens(deviceID: "tablet") == [second])
        try await store.setBackoff(date(1_800_000_500), for: "t1")
        #expect(try await store.pushTokens(deviceID: "phone").first?.backoffUntil == date(1_800_000_500))
        try await store.setBackoff(nil, for: "t1")
        #expect(try await database.activities().pushTokens(deviceID: "phone").first?.backoffUntil == nil)
        #expect(try await store.deletePushToken("t1"))
        #expect(try await !store.deletePushToken("t1"))
        #expect(try await store.pushTokens(activityID: "a") == [second])
    }

    @Test(arguments: NodeStoreKind.allCases)
    func pushToStartTokensChannelsAndOutcomes(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let store = try await database.activities()
        let phone = PushToStartToken(token: "s1", deviceID: "phone", attributesType: "Downloading", environment: .production, createdAt: date(1_800_000_001))
        let tablet = PushToStartToken(token: "s2", deviceID: "tablet", attributesType: "NowPlaying", environment: .sandbox, createdAt: date(1_800_000_002))
        try await store.save(tablet)
        try await store.save(phone)
        #expect(try await store.pushToStartTokens() == [phone, tablet])
        #expect(try await store.pushToStartTokens(deviceID: "tablet") == [tablet])
        #expect(try await store.pushToStartTokens(attributesType: "Downloading") == [phone])
        #expect(try await store.pushToStartTokens(deviceID: "phone", attributesType: "NowPlaying").isEmpty)
        #expect(try await store.deletePushToStartToken("s1"))
        #expect(try await !store.deletePushToStartToken("s1"))

        let channel = BroadcastChannel(id: "ch-1", environment: .sandbox, storagePolicy: 1, activityID: "a", createdAt: date(1_800_000_003))
        try await store.save(channel)
        #expect(try await store.channel(id: "ch-1") == channel)
        #expect(try await store.channels() == [channel])
        #expect(try await store.deleteChannel(id: "ch-1"))
        #expect(try await !store.deleteChannel(id: "ch-1"))
        #expect(try await store.channels().isEmpty)

        // Outcomes: newest first, and only the newest `activityOutcomesKept` of an activity are kept.
        for attempt in 0..<(activityOutcomesKept + 3) {
            try await store.record(
                PushOutcomeRecord(
                    activityID: "a", target: "token", event: "update", priority: 10, result: attempt % 2 == 0 ? "delivered" : "rejected",
                    status: attempt % 2 == 0 ? 200 : 400, reason: attempt % 2 == 0 ? nil : "BadDeviceToken", apnsID: "id-\(attempt)", attempts: 1,
                    at: date(1_800_001_000 + Double(attempt))))
        }
        try await store.record(
            PushOutcomeRecord(
                activityID: nil, target: "channel", event: "start", priority: 5, result: "delivered", status: 200, reason: nil, apnsID: nil,
                attempts: 2, at: date(1_800_009_000)))
        let kept = try await store.outcomes(activityID: "a", limit: 1000)
        #expect(kept.count == activityOutcomesKept)
        #expect(kept.first?.apnsID == "id-\(activityOutcomesKept + 2)" && kept.last?.apnsID == "id-3")
        #expect(kept.first?.at == date(1_800_001_000 + Double(activityOutcomesKept + 2)))
        let newest = try await store.outcomes(limit: 2)
        #expect(newest.map(\.target) == ["channel", "token"])
        #expect(newest.first?.activityID == nil && newest.first?.attempts == 2)
    }

    /// Two server nodes on one PostgreSQL: what one center does, the other lists and announces.
    @Test func anActivityStartedThroughOneNodeIsListedByAnother() async throws {
        let database = try await NodeStoreKind.postgresql.makeDatabase()
        defer { database.cleanUp() }
        let nodeA = try await ActivityCenter(store: try await database.activities())
        let nodeB = try await ActivityCenter(store: try await database.activities())
        let events = await nodeB.events()
        let started = try await nodeA.request(
            type: "Downloading", attributes: .object(["title": .string("Big file")]), content: ActivityContent(state: .object(["percent": .number(5)])))
        #expect(await nodeB.list().isEmpty)
        await nodeB.reconcile()
        #expect(await nodeB.list().map(\.activity.id) == [started.activity.id])

        _ = try await nodeA.update(id: started.activity.id, content: ActivityContent(state: .object(["percent": .number(60)])))
        await nodeB.reconcile()
        #expect(try await nodeB.snapshot(id: started.activity.id).activity.content.state == .object(["percent": .number(60)]))

        try await nodeA.delete(id: started.activity.id)
        await nodeB.reconcile()
        #expect(await nodeB.list().isEmpty)

        let names = await first(3, of: events)
        #expect(names == ["started", "updated", "dismissed"])
    }
}

/// The names of the first `count` events, or of those that came within five seconds.
func first(_ count: Int, of events: AsyncStream<ActivityEvent>) async -> [String] {
    await withTaskGroup(of: [String]?.self) { group in
        group.addTask {
            var names: [String] = []
            for await event in events {
                names.append(event.name)
                if names.count == count { break }
            }
            return names
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(5))  // the bound itself: real time is what it limits
            return nil
        }
        let names = await group.next() ?? nil
        group.cancelAll()
        return names ?? ["(fewer than \(count) events within 5 s)"]
    }
}
