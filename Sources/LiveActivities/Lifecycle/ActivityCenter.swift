public import Clocks
import EventFeed
public import Foundation
public import JSONDocument

/// The server's Live Activities, as ActivityKit keeps an app's: request, update and end
/// them, read them in relevance order, and hear every change. The rules are
/// `ActivityLifecycle`'s; this actor stores the results and announces them.
///
/// Time comes from `clock`, so tests move it by hand; `reconcile()` applies what time alone
/// does (stale dates, scheduled starts, the 8-hour limit, dismissal dates) and `run(every:)`
/// calls it periodically in the server.
public actor ActivityCenter {
    /// Where the activities, their push tokens and push outcomes are kept.
    public nonisolated let store: any ActivityStore
    /// The time stale dates, scheduled starts and the 8-hour limit are measured on.
    public nonisolated let clock: any WallClock
    private var activities: [String: Activity] = [:]
    private var shownStates: [String: ActivityState] = [:]
    private let feed = EventFeed<ActivityEvent>()
    /// Counts this center's own writes, so reading a shared store back never undoes one that
    /// landed while the read was under way.
    private var localWrites = 0
    /// Dismissed activities are deleted from the store this long after their dismissal.
    let dismissedRetention: TimeInterval = 24 * 3600

    /// Opens the center over `store`, reading back every activity it holds.
    public init(store: any ActivityStore, clock: any WallClock = SystemClock()) async throws {
        self.store = store
        self.clock = clock
        for activity in try await store.activities() {
            activities[activity.id] = activity
            shownStates[activity.id] = activity.state(at: now())
        }
    }

    /// The date on the center's clock.
    public var currentDate: Date { now() }

    private nonisolated func now() -> Date { clock.now }

    // MARK: Reading

    /// Activities not yet dismissed, what is live first, then the most relevant.
    public func list(includingDismissed: Bool = false, type: String? = nil) -> [ActivitySnapshot] {
        let date = now()
        return activities.values
            .filter { includingDismissed || $0.state(at: date) != .dismissed }
            .filter { type == nil || $0.type == type }
            .orderedByRelevance(at: date)
            .map { ActivitySnapshot(activity: $0, state: $0.state(at: date)) }
    }

    /// Activity `id` and its state now, dismissed ones included; throws `.notFound` for an unknown id.
    public func snapshot(id: String) throws(ActivityError) -> ActivitySnapshot {
        guard let activity = activities[id] else { throw .notFound(id) }
        return ActivitySnapshot(activity: activity, state: activity.state(at: now()))
    }

    // MARK: Lifecycle

    /// Starts an activity (pending until `start` when that is later).
    public func request(
        type: String, attributes: JSONValue, content: ActivityContent<JSONValue>, start: Date? = nil,
        alert: AlertConfiguration? = nil, id: String? = nil
    ) async throws -> ActivitySnapshot {
        if let id, activities[id] != nil { throw ActivityError.invalid("A live activity \(id) already exists") }
        let activity = try ActivityLifecycle.request(
            id: id ?? UUID().uuidString.lowercased(), type: type, attributes: attributes,
            content: content, start: start, alert: alert, now: now())
        localWrites += 1

        try await store.save(activity)
        activities[activity.id] = activity
        let snapshot = ActivitySnapshot(activity: activity, state: activity.state(at: now()))
        shownStates[activity.id] = snapshot.state
        publish(.started(snapshot))
        return snapshot
    }

    /// Starts a typed activity.
    public func request<A: ActivityAttributes>(
        attributes: A, content: ActivityContent<A.ContentState>, start: Date? = nil,
        alert: AlertConfiguration? = nil, id: String? = nil
    ) async throws -> ActivitySnapshot {
        try await request(
            type: A.attributesType, attributes: JSONValue(encoding: attributes), content: Self.erase(content),
            start: start, alert: alert, id: id)
    }

    /// Applies an update; `timestamp` (default now) orders it against the others.
    @discardableResult
    public func update(
        id: String, content: ActivityContent<JSONValue>, alert: AlertConfiguration? = nil,
        timestamp: Date? = nil
    ) async throws -> ActivityLifecycle.Outcome {
        guard var activity = activities[id] else { throw ActivityError.notFound(id) }
        let date = now()
        let outcome = try ActivityLifecycle.update(&activity, content: content, alert: alert, timestamp: timestamp ?? date, now: date)
        try await commit(activity, previous: activities[id]!, outcome: outcome, alerted: alert != nil)
        return outcome
    }

    /// `update(id:content:alert:timestamp:)` with a typed state, stored as JSON.
    @discardableResult
    public func update<State: Codable & Sendable & Hashable>(
        id: String, content: ActivityContent<State>, alert: AlertConfiguration? = nil,
        timestamp: Date? = nil
    ) async throws -> ActivityLifecycle.Outcome {
        try await update(id: id, content: Self.erase(content), alert: alert, timestamp: timestamp)
    }

    /// Ends an activity, with final content if given, dismissed as `policy` says.
    @discardableResult
    public func end(
        id: String, content: ActivityContent<JSONValue>? = nil, dismissalPolicy: DismissalPolicy = .default,
        timestamp: Date? = nil
    ) async throws -> ActivityLifecycle.Outcome {
        guard var activity = activities[id] else { throw ActivityError.notFound(id) }
        let date = now()
        let outcome = try ActivityLifecycle.end(&activity, content: content, policy: dismissalPolicy, timestamp: timestamp ?? date, now: date)
        try await commit(activity, previous: activities[id]!, outcome: outcome, alerted: false)
        return outcome
    }

    /// `end(id:content:dismissalPolicy:timestamp:)` with a typed final state, stored as JSON.
    @discardableResult
    public func end<State: Codable & Sendable & Hashable>(
        id: String, content: ActivityContent<State>?, dismissalPolicy: DismissalPolicy = .default,
        timestamp: Date? = nil
    ) async throws -> ActivityLifecycle.Outcome {
        try await end(id: id, content: try content.map(Self.erase), dismissalPolicy: dismissalPolicy, timestamp: timestamp)
    }

    /// Removes an activity at once, wherever it is in its life (and its push tokens with it).
    public func delete(id: String) async throws {
        guard activities[id] != nil else { throw ActivityError.notFound(id) }
        localWrites += 1

        try await store.deleteActivity(id: id)
        activities[id] = nil
        shownStates[id] = nil
        publish(.dismissed(id: id))
    }

    /// Applies what the passing of time does and announces every state a viewer would see
    /// change. Returns the events it published.
    @discardableResult
    public func reconcile() async -> [ActivityEvent] {
        if store.isShared { await adoptStoredActivities() }
        let date = now()
        var published: [ActivityEvent] = []
        for id in activities.keys.sorted() {
            guard var activity = activities[id] else { continue }
            let wasEnded = activity.phase == .ended
            let wasPending = activity.phase == .pending
            if ActivityLifecycle.reconcile(&activity, now: date) {
                localWrites += 1

                try? await store.save(activity)
                activities[id] = activity
            }
            let state = activity.state(at: date)
            if state == .dismissed, let dismissal = activity.dismissalDate, date.timeIntervalSince(dismissal) > dismissedRetention {
                localWrites += 1

                try? await store.deleteActivity(id: id)
                activities[id] = nil
                shownStates[id] = nil
                continue
            }
            guard state != shownStates[id] else { continue }
            shownStates[id] = state
            let snapshot = ActivitySnapshot(activity: activity, state: state)
            let event: ActivityEvent
            if state == .dismissed {
                event = .dismissed(id: id)
            } else if activity.phase == .ended && !wasEnded {
                event = .ended(snapshot)
            } else if wasPending && activity.phase == .active {
                event = .started(snapshot)
            } else {
                event = .stateChanged(snapshot)
            }
            publish(event)
            published.append(event)
        }
        return published
    }

    /// Takes in what other server nodes sharing the store did — activities requested, updated,
    /// ended or deleted there — and announces it as if it had happened here.
    private func adoptStoredActivities() async {
        let known = Set(activities.keys)
        let writes = localWrites
        guard let stored = try? await store.activities(), writes == localWrites else { return }
        let date = now()
        var seen = Set<String>()
        for activity in stored {
            seen.insert(activity.id)
            let previous = activities[activity.id]
            guard previous != activity else { continue }
            activities[activity.id] = activity
            let state = activity.state(at: date)
            shownStates[activity.id] = state
            let snapshot = ActivitySnapshot(activity: activity, state: state)
            if previous == nil {
                publish(.started(snapshot))
            } else if state == .dismissed {
                publish(.dismissed(id: activity.id))
            } else if activity.phase == .ended && previous?.phase != .ended {
                publish(.ended(snapshot))
            } else {
                publish(.updated(snapshot, alerted: activity.alertDate != previous?.alertDate))
            }
        }
        for id in known.subtracting(seen) where activities[id] != nil {
            activities[id] = nil
            shownStates[id] = nil
            publish(.dismissed(id: id))
        }
    }

    /// Calls `reconcile()` every `interval` until the task is cancelled.
    public func run(every interval: Duration = .seconds(1)) async {
        while !Task.isCancelled {
            await reconcile()
            try? await clock.sleep(for: interval)
        }
    }

    // MARK: Events

    /// Every change from now on, until the consumer goes away.
    public func events() -> AsyncStream<ActivityEvent> {
        feed.subscribe(buffer: 1024)
    }

    private func publish(_ event: ActivityEvent) {
        feed.publish(event)
    }

    private func commit(_ activity: Activity, previous: Activity, outcome: ActivityLifecycle.Outcome, alerted: Bool) async throws {
        // A reconcile inside the lifecycle (the 8-hour limit) may have changed it even when the
        // request itself was not applied.
        guard activity != previous else { return }
        localWrites += 1

        try await store.save(activity)
        activities[activity.id] = activity
        let state = activity.state(at: now())
        let before = shownStates[activity.id]
        shownStates[activity.id] = state
        let snapshot = ActivitySnapshot(activity: activity, state: state)
        if activity.phase == .ended && previous.phase != .ended {
            publish(.ended(snapshot))
            if state == .dismissed { publish(.dismissed(id: activity.id)) }
        } else if outcome == .applied {
            publish(.updated(snapshot, alerted: alerted))
        } else if before != state {
            publish(.stateChanged(snapshot))
        }
    }

    // MARK: Push registrations

    /// Keeps the push token an iPhone gave for one activity.
    public func registerPushToken(_ token: String, activityID: String, deviceID: String, environment: PushEnvironment) async throws -> ActivityPushToken {
        guard activities[activityID] != nil else { throw ActivityError.notFound(activityID) }
        let record = ActivityPushToken(
            token: try Self.checkedToken(token), activityID: activityID,
            deviceID: try Self.checkedDevice(deviceID), environment: environment, createdAt: now())
        try await store.save(record)
        return record
    }

    /// Keeps a device's push-to-start token for one attributes type.
    public func registerPushToStartToken(
        _ token: String, deviceID: String, attributesType: String,
        environment: PushEnvironment
    ) async throws -> PushToStartToken {
        let type = attributesType.trimmingCharacters(in: .whitespaces)
        guard !type.isEmpty, type.unicodeScalars.count <= 100 else { throw ActivityError.invalid("attributesType must be 1 to 100 characters") }
        let record = PushToStartToken(
            token: try Self.checkedToken(token), deviceID: try Self.checkedDevice(deviceID),
            attributesType: type, environment: environment, createdAt: now())
        try await store.save(record)
        return record
    }

    /// A device token as APNs writes it: an even number of hex digits (lowercased here).
    public static func checkedToken(_ token: String) throws(ActivityError) -> String {
        let hex = token.lowercased()
        guard (16...400).contains(hex.count), hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) else {
            throw .invalid("A push token is an even number (16 to 400) of hexadecimal digits, as the device gave it")
        }
        return hex
    }

    static func checkedDevice(_ device: String) throws(ActivityError) -> String {
        let trimmed = device.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= 200 else { throw .invalid("deviceID must be 1 to 200 characters") }
        return trimmed
    }

    static func erase<State: Codable & Sendable & Hashable>(_ content: ActivityContent<State>) throws -> ActivityContent<JSONValue> {
        ActivityContent(state: try JSONValue(encoding: content.state), staleDate: content.staleDate, relevanceScore: content.relevanceScore)
    }
}
