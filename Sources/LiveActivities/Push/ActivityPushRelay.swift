public import APNs
import CoreMetrics
import Foundation
import JSONDocument

/// Carries activity changes to iPhones through APNs: a start to every push-to-start token of
/// the activity's type (asking for the new activity's push token), updates and the end to
/// the activity's own push tokens, and the same to a broadcast channel tied to it.
///
/// Updates to one activity are coalesced: while a push for it is in flight, newer content
/// replaces whatever waits, so the latest state wins and a slow APNs never builds a queue.
/// Priority 10 is used at most `highPriorityPerHour` times an hour per activity; the rest
/// go at 5. Every answer is recorded; a 410 deletes the token; a 429 backs the token off.
public actor ActivityPushRelay {
    let center: ActivityCenter
    let store: any ActivityStore
    let client: APNsClient
    private var budget: PriorityBudget
    private var waiting: [String: LiveActivityNotification] = [:]
    private var inFlight: [String: Task<Void, Never>] = [:]
    private var listener: Task<Void, Never>?
    /// The newest push for each token APNs throttled (429), sent when its back-off ends.
    private var held: [String: HeldPush] = [:]
    private var wakers: [String: Task<Void, Never>] = [:]

    /// A push waiting for a throttled token's back-off to end.
    struct HeldPush {
        var token: ActivityPushToken
        var notification: LiveActivityNotification
        var until: Date
    }
    /// Pushes handed to APNs (for tests and the API's status).
    public private(set) var sentCount = 0

    public init(center: ActivityCenter, client: APNsClient) {
        self.center = center
        self.store = center.store
        self.client = client
        budget = PriorityBudget(perHour: client.configuration.highPriorityPerHour)
    }

    /// Starts following the center's events.
    public func start() async {
        guard listener == nil else { return }
        let events = await center.events()
        listener = Task { [weak self] in
            for await event in events { await self?.handle(event) }
        }
    }

    public func stop() {
        listener?.cancel()
        listener = nil
        for waker in wakers.values { waker.cancel() }
        wakers = [:]
    }

    /// Waits until no push is waiting or in flight.
    public func drain() async {
        while let (_, task) = inFlight.first {
            await task.value
        }
    }

    func handle(_ event: ActivityEvent) async {
        let now = await center.currentDate
        switch event {
        case .started(let snapshot):
            await pushStart(snapshot.activity)
        case .updated(let snapshot, let alerted):
            let activity = snapshot.activity
            guard let state = try? activity.content.state.data() else { return }
            let alert = alerted ? activity.alert.map { LiveActivityNotification.Alert(title: $0.title, body: $0.body, sound: $0.sound) } : nil
            enqueue(
                activity.id,
                LiveActivityNotification(
                    event: .update, timestamp: activity.timestamp, contentState: state,
                    staleDate: activity.content.staleDate, relevanceScore: activity.content.relevanceScore,
                    alert: alert))
        case .ended(let snapshot):
            let activity = snapshot.activity
            guard let state = try? activity.content.state.data() else { return }
            enqueue(
                activity.id,
                LiveActivityNotification(
                    event: .end, timestamp: activity.timestamp, contentState: state,
                    staleDate: activity.content.staleDate, dismissalDate: Self.dismissalDateToSend(activity, now: now),
                    relevanceScore: activity.content.relevanceScore))
        case .stateChanged, .dismissed:
            // Stale and dismissed follow from the dates the device already has.
            break
        }
    }

    /// The `dismissal-date` an end carries: none for the default policy (the device keeps an
    /// ended activity up to 4 hours by itself), else the activity's dismissal date.
    static func dismissalDateToSend(_ activity: Activity, now: Date) -> Date? {
        guard let dismissal = activity.dismissalDate else { return now }
        if let endedAt = activity.endedAt, dismissal == DismissalPolicy.default.dismissalDate(endedAt: endedAt) { return nil }
        return dismissal
    }

    /// The alert a start shows when the activity asked for none: the attributes' `title` or
    /// `name` if they have one, else nothing visible — never the type's name, which is a
    /// developer's identifier ("Match"), not something to show a person.
    static func quietAlert(for activity: Activity) -> LiveActivityNotification.Alert {
        if case .object(let fields) = activity.attributes {
            for key in ["title", "name"] {
                if case .string(let text) = fields[key], !text.isEmpty { return .init(title: text, body: "") }
            }
        }
        return .init(title: "", body: "")
    }

    private func pushStart(_ activity: Activity) async {
        guard let tokens = try? await store.pushToStartTokens(attributesType: activity.type), !tokens.isEmpty,
            let state = try? activity.content.state.data(), let attributes = try? activity.attributes.data()
        else { return }
        let alert =
            activity.alert.map { LiveActivityNotification.Alert(title: $0.title, body: $0.body, sound: $0.sound) }
            ?? Self.quietAlert(for: activity)
        let notification = LiveActivityNotification(
            event: .start, timestamp: activity.timestamp, contentState: state, staleDate: activity.content.staleDate,
            relevanceScore: activity.content.relevanceScore, alert: alert, attributesType: activity.type, attributes: attributes,
            inputPushToken: true)
        let priority = budget.priority(for: activity.id, wanted: 10, now: await center.currentDate)
        await withTaskGroup(of: Void.self) { group in
            for token in tokens {
                group.addTask {
                    let result = await self.client.send(notification, to: token.token, environment: APNsEnvironment(token.environment), priority: priority)
                    await self.note(result, activityID: activity.id, target: token.token, event: "start", pushToStart: true)
                }
            }
        }
    }

    /// Keeps only the newest push per activity; an end always replaces an update.
    private func enqueue(_ activityID: String, _ notification: LiveActivityNotification) {
        if let waitingNow = waiting[activityID], waitingNow.event == .end, notification.event != .end { return }
        waiting[activityID] = notification
        guard inFlight[activityID] == nil else { return }
        inFlight[activityID] = Task { await self.sendWaiting(activityID) }
    }

    private func sendWaiting(_ activityID: String) async {
        var ended = false
        while let notification = waiting.removeValue(forKey: activityID) {
            await deliver(notification, activityID: activityID)
            ended = notification.event == .end
        }
        inFlight[activityID] = nil
        if ended { budget.forget(activityID) }
    }

    private func deliver(_ notification: LiveActivityNotification, activityID: String) async {
        let tokens = (try? await store.pushTokens(activityID: activityID)) ?? []
        let channels = ((try? await store.channels()) ?? []).filter { $0.activityID == activityID }
        guard !tokens.isEmpty || !channels.isEmpty else { return }
        let now = await center.currentDate
        let priority = budget.priority(for: activityID, wanted: 10, now: now)
        let event = notification.event.rawValue
        await withTaskGroup(of: Void.self) { group in
            for token in tokens {
                if let until = token.backoffUntil, until > now {
                    hold(notification, for: token, until: until)
                    group.addTask {
                        await self.noteRefused(
                            activityID: activityID, target: token.token, event: event, priority: priority,
                            reason: "Held until TooManyRequests' back-off ends at \(until); the newest state goes then")
                    }
                    continue
                }
                group.addTask { await self.send(notification, to: token, priority: priority) }
            }
            for channel in channels {
                group.addTask {
                    let result = await self.client.broadcast(
                        notification, channelID: channel.id, environment: APNsEnvironment(channel.environment),
                        priority: priority)
                    await self.note(result, activityID: activityID, target: channel.id, event: event, pushToStart: false)
                }
            }
        }
    }

    /// Sends to one activity token; a 429 holds the push until the back-off ends.
    private func send(_ notification: LiveActivityNotification, to token: ActivityPushToken, priority: Int) async {
        let result = await client.send(notification, to: token.token, environment: APNsEnvironment(token.environment), priority: priority)
        await note(result, activityID: token.activityID, target: token.token, event: notification.event.rawValue, pushToStart: false)
        if result.kind == .throttled, let until = result.retryAfter { hold(notification, for: token, until: until) }
    }

    /// Keeps the newest push for a throttled token (an end is never replaced by an update)
    /// and sends it when the back-off ends: updates during a back-off are coalesced, and
    /// the latest state and any end still reach the phone.
    private func hold(_ notification: LiveActivityNotification, for token: ActivityPushToken, until: Date) {
        if let waiting = held[token.token], waiting.notification.event == .end, notification.event != .end { return }
        if let waiting = held[token.token], waiting.notification.timestamp > notification.timestamp { return }
        held[token.token] = HeldPush(token: token, notification: notification, until: until)
        guard wakers[token.token] == nil else { return }
        wakers[token.token] = Task { [weak self] in
            let delay = max(0, until.timeIntervalSinceNow)
            try? await Task.sleep(for: .milliseconds(Int64(delay * 1000) + 1))
            await self?.sendHeld(token.token)
        }
    }

    private func sendHeld(_ token: String) async {
        wakers[token] = nil
        guard let push = held.removeValue(forKey: token) else { return }
        // Not if the token was deleted (410) or the activity is gone meanwhile.
        guard let current = try? await store.pushTokens(activityID: push.token.activityID),
            let registration = current.first(where: { $0.token == token })
        else { return }
        if let until = await client.backedOff(token), until > Date() {
            hold(push.notification, for: registration, until: until)
            return
        }
        let priority = budget.priority(for: push.token.activityID, wanted: 10, now: await center.currentDate)
        await send(push.notification, to: registration, priority: priority)
    }

    /// Pushes held for throttled tokens (tests wait for them to go).
    public var heldCount: Int { held.count }

    private func note(_ result: PushResult, activityID: String, target: String, event: String, pushToStart: Bool) async {
        if result.attempts > 0 { sentCount += 1 }
        // Through swift-metrics' global factory (`/metrics` on `marquee serve`).
        Counter(label: "marquee_apns_pushes_total", dimensions: [("result", result.kind.rawValue)]).increment()
        switch result.kind {
        case .unregistered:
            if pushToStart { try? await store.deletePushToStartToken(target) } else { try? await store.deletePushToken(target) }
        case .throttled:
            if !pushToStart { try? await store.setBackoff(result.retryAfter, for: target) }
        default:
            break
        }
        try? await store.record(
            PushOutcomeRecord(
                activityID: activityID, target: target, event: event, priority: result.priority,
                result: result.kind.rawValue, status: result.status, reason: result.reason,
                apnsID: result.apnsID, attempts: result.attempts, at: await center.currentDate))
    }

    private func noteRefused(activityID: String, target: String, event: String, priority: Int, reason: String) async {
        Counter(label: "marquee_apns_pushes_total", dimensions: [("result", PushResult.Kind.refused.rawValue)]).increment()
        try? await store.record(
            PushOutcomeRecord(
                activityID: activityID, target: target, event: event, priority: priority,
                result: PushResult.Kind.refused.rawValue, status: nil, reason: reason,
                apnsID: nil, attempts: 0, at: await center.currentDate))
    }
}

extension APNsEnvironment {
    init(_ environment: PushEnvironment) {
        self = environment == .sandbox ? .sandbox : .production
    }
}
