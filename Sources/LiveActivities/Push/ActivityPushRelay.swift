import APNs
import Foundation

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
                    staleDate: activity.content.staleDate, dismissalDate: activity.dismissalDate ?? now,
                    relevanceScore: activity.content.relevanceScore))
        case .stateChanged, .dismissed:
            // Stale and dismissed follow from the dates the device already has.
            break
        }
    }

    private func pushStart(_ activity: Activity) async {
        guard let tokens = try? await store.pushToStartTokens(attributesType: activity.type), !tokens.isEmpty,
            let state = try? activity.content.state.data(), let attributes = try? activity.attributes.data()
        else { return }
        let alert =
            activity.alert.map { LiveActivityNotification.Alert(title: $0.title, body: $0.body, sound: $0.sound) }
            ?? LiveActivityNotification.Alert(title: activity.type, body: "")
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
                    group.addTask {
                        await self.noteRefused(
                            activityID: activityID, target: token.token, event: event, priority: priority,
                            reason: "Backing off after TooManyRequests until \(until)")
                    }
                    continue
                }
                group.addTask {
                    let result = await self.client.send(
                        notification, to: token.token, environment: APNsEnvironment(token.environment),
                        priority: priority)
                    await self.note(result, activityID: activityID, target: token.token, event: event, pushToStart: false)
                }
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

    private func note(_ result: PushResult, activityID: String, target: String, event: String, pushToStart: Bool) async {
        if result.attempts > 0 { sentCount += 1 }
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
