public import Foundation
public import JSONDocument

/// The rules of an activity's life, as values: each call takes the activity and the time and
/// says what happened; the caller stores and announces it. Nothing here reads a clock.
///
/// - A content state is a JSON object of at most `contentStateLimit` bytes (ActivityKit's 4 KB).
/// - An update or end whose timestamp is older than the last one applied is dropped.
/// - Updates after the end are ignored.
/// - An activity still active `longestActive` (8 h) after it started is ended by the system,
///   with the default dismissal (it stays on the lock screen up to 4 h more).
public enum ActivityLifecycle {
    public static let contentStateLimit = 4096
    public static let longestActive: TimeInterval = 8 * 3600

    /// What became of an update or an end.
    public enum Outcome: String, Sendable, Hashable, Codable {
        case applied
        /// Its timestamp is older than the last update's.
        case droppedOlderTimestamp
        /// The activity had already ended.
        case ignoredAfterEnd
    }

    /// Checks a content state: a JSON object within the size limit.
    public static func validate(state: JSONValue) throws(ActivityError) {
        guard state.isObject else { throw .invalid("The content state must be a JSON object") }
        let bytes: Int
        do { bytes = try state.data().count } catch { throw .invalid("The content state cannot be encoded as JSON: \(error)") }
        if bytes > contentStateLimit { throw .contentStateTooLarge(bytes: bytes, limit: contentStateLimit) }
    }

    /// A new activity; `start` later than `now` makes it pending until then (a scheduled activity).
    public static func request(
        id: String = UUID().uuidString.lowercased(), type: String, attributes: JSONValue,
        content: ActivityContent<JSONValue>, start: Date? = nil, alert: AlertConfiguration? = nil,
        now: Date
    ) throws(ActivityError) -> Activity {
        let name = type.trimmingCharacters(in: .whitespaces)
        // Counted in Unicode scalars, as openapi.json's maxLength counts.
        guard !name.isEmpty, name.unicodeScalars.count <= 100 else { throw .invalid("An activity needs a type name of 1 to 100 characters") }
        guard attributes.isObject else { throw .invalid("The attributes must be a JSON object") }
        guard content.relevanceScore.isFinite else { throw .invalid("The relevance score must be a finite number") }
        try validate(state: content.state)
        let startDate = max(now, start ?? now)
        var activity = Activity(
            id: id, type: name, attributes: attributes, content: content,
            phase: startDate > now ? .pending : .active, createdAt: now, startDate: startDate, timestamp: now)
        if let alert {
            activity.alert = alert
            activity.alertDate = now
        }
        return activity
    }

    /// Applies new content, with the alert it carries, unless it is older than the last or the
    /// activity has ended.
    public static func update(
        _ activity: inout Activity, content: ActivityContent<JSONValue>, alert: AlertConfiguration? = nil,
        timestamp: Date, now: Date
    ) throws(ActivityError) -> Outcome {
        try validate(state: content.state)
        guard content.relevanceScore.isFinite else { throw .invalid("The relevance score must be a finite number") }
        reconcile(&activity, now: now)
        guard activity.phase != .ended else { return .ignoredAfterEnd }
        guard timestamp >= activity.timestamp else { return .droppedOlderTimestamp }
        activity.content = content
        activity.timestamp = timestamp
        if let alert {
            activity.alert = alert
            activity.alertDate = now
        }
        return .applied
    }

    /// Ends the activity, with final content if given; it is dismissed as `policy` says.
    public static func end(
        _ activity: inout Activity, content: ActivityContent<JSONValue>? = nil,
        policy: DismissalPolicy = .default, timestamp: Date, now: Date
    ) throws(ActivityError) -> Outcome {
        if let content { try validate(state: content.state) }
        reconcile(&activity, now: now)
        guard activity.phase != .ended else { return .ignoredAfterEnd }
        guard timestamp >= activity.timestamp else { return .droppedOlderTimestamp }
        if let content { activity.content = content }
        activity.timestamp = timestamp
        activity.phase = .ended
        activity.endedAt = now
        activity.dismissalDate = policy.dismissalDate(endedAt: now)
        return .applied
    }

    /// Applies what time alone does: a scheduled activity becomes active at its start; one
    /// active for `longestActive` is ended by the system. Returns whether anything changed.
    @discardableResult
    public static func reconcile(_ activity: inout Activity, now: Date) -> Bool {
        var changed = false
        if activity.phase == .pending, now >= activity.startDate {
            activity.phase = .active
            changed = true
        }
        let limit = activity.startDate.addingTimeInterval(longestActive)
        if activity.phase == .active, now >= limit {
            activity.phase = .ended
            activity.endedAt = limit
            activity.dismissalDate = DismissalPolicy.default.dismissalDate(endedAt: limit)
            activity.endedBySystem = true
            changed = true
        }
        return changed
    }
}
