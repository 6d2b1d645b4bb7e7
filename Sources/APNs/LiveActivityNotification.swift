public import Foundation

/// One Live Activity push: the `aps` dictionary APNs forwards to ActivityKit.
///
/// `timestamp` orders updates on the device; `content-state` is the activity's state as the
/// app's `ContentState` decodes it; `stale-date`, `dismissal-date` (end only) and dates in
/// general are integer epoch seconds; `relevance-score` is passed as given (not clamped).
/// A start carries `attributes-type`, `attributes` and an `alert`, and may ask for the new
/// activity's push token (`input-push-token`) or subscribe it to a channel (`input-push-channel`).
public struct LiveActivityNotification: Sendable, Hashable {
    /// `event`: starts an activity (push-to-start), updates one, or ends it.
    public enum Event: String, Sendable, Hashable, Codable { case start, update, end }

    /// `alert`: what the device shows and sounds when the push arrives.
    public struct Alert: Sendable, Hashable, Codable {
        /// The alert's title.
        public var title: String
        /// The alert's text.
        public var body: String
        /// A sound file of the app, or `default`; nil for silence.
        public var sound: String?
        /// An alert with `title` and `body`.
        public init(title: String, body: String, sound: String? = nil) {
            self.title = title
            self.body = body
            self.sound = sound
        }
    }

    /// APNs' limit on a Live Activity payload, in bytes.
    public static let payloadLimit = 4096

    /// Start, update or end.
    public var event: Event
    /// When the state was made; the device ignores a push older than the last one it applied.
    public var timestamp: Date
    /// The content state, as UTF-8 JSON (an object).
    public var contentState: Data
    /// When the content becomes out of date, if no update comes first.
    public var staleDate: Date?
    /// When an ended activity leaves the screen (end only); nil lets the system decide.
    public var dismissalDate: Date?
    /// How the system ranks this activity among the app's others; higher is more relevant.
    public var relevanceScore: Double?
    /// The alert to show; a start needs one.
    public var alert: Alert?
    /// The name of the activity's attributes type in the app (start only).
    public var attributesType: String?
    /// The attributes, as UTF-8 JSON (an object); start only.
    public var attributes: Data?
    /// Start only: asks the device for the new activity's own push token.
    public var inputPushToken: Bool
    /// Start only: subscribes the new activity to this broadcast channel.
    public var inputPushChannel: String?

    /// A push with the given fields; `payload()` checks them.
    public init(
        event: Event, timestamp: Date, contentState: Data, staleDate: Date? = nil, dismissalDate: Date? = nil,
        relevanceScore: Double? = nil, alert: Alert? = nil, attributesType: String? = nil, attributes: Data? = nil,
        inputPushToken: Bool = false, inputPushChannel: String? = nil
    ) {
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.relevanceScore = relevanceScore
        self.alert = alert
        self.attributesType = attributesType
        self.attributes = attributes
        self.inputPushToken = inputPushToken
        self.inputPushChannel = inputPushChannel
    }

    /// The JSON body, checked against the rules APNs and ActivityKit apply.
    public func payload() throws(APNsError) -> Data {
        guard Self.isObject(contentState) else { throw .invalidNotification("content-state must be a JSON object") }
        switch event {
        case .start:
            guard alert != nil else { throw .invalidNotification("A start push needs an alert") }
            guard let attributesType, !attributesType.isEmpty, let attributes, Self.isObject(attributes) else {
                throw .invalidNotification("A start push needs attributes-type and an attributes object")
            }
        case .update, .end:
            if attributesType != nil || attributes != nil { throw .invalidNotification("attributes are sent only with a start push") }
            if inputPushToken || inputPushChannel != nil { throw .invalidNotification("input-push-token and input-push-channel go only with a start push") }
        }
        if dismissalDate != nil, event != .end { throw .invalidNotification("dismissal-date goes only with an end push") }
        if let relevanceScore, !relevanceScore.isFinite { throw .invalidNotification("relevance-score must be a finite number") }
        var aps = "{\"timestamp\":\(Self.epoch(timestamp)),\"event\":\"\(event.rawValue)\",\"content-state\":"
        aps += String(decoding: contentState, as: UTF8.self)
        if let staleDate { aps += ",\"stale-date\":\(Self.epoch(staleDate))" }
        if let dismissalDate { aps += ",\"dismissal-date\":\(Self.epoch(dismissalDate))" }
        if let relevanceScore { aps += ",\"relevance-score\":" + JSONText.number(relevanceScore) }
        if let alert {
            aps += ",\"alert\":{\"title\":\(JSONText.string(alert.title)),\"body\":\(JSONText.string(alert.body))"
            if let sound = alert.sound { aps += ",\"sound\":\(JSONText.string(sound))" }
            aps += "}"
        }
        if let attributesType, let attributes {
            aps += ",\"attributes-type\":\(JSONText.string(attributesType)),\"attributes\":" + String(decoding: attributes, as: UTF8.self)
        }
        if inputPushToken { aps += ",\"input-push-token\":1" }
        if let inputPushChannel { aps += ",\"input-push-channel\":\(JSONText.string(inputPushChannel))" }
        let body = Data(("{\"aps\":" + aps + "}}").utf8)
        if body.count > Self.payloadLimit { throw .payloadTooLarge(bytes: body.count, limit: Self.payloadLimit) }
        return body
    }

    /// How long APNs should keep the push for a phone that is offline (`apns-expiration`):
    /// an update until its stale date (it means nothing after), at most 8 hours (the longest
    /// an activity runs); an end until its dismissal date, or the 4 hours a default end stays
    /// on the Lock Screen, so a phone that comes back online still ends the activity; a start
    /// for an hour.
    public func expiration(now: Date) -> Date {
        let hour: TimeInterval = 3600
        switch event {
        case .start:
            return now.addingTimeInterval(hour)
        case .update:
            let longest = now.addingTimeInterval(8 * hour)
            guard let staleDate, staleDate > now else { return staleDate == nil ? longest : now.addingTimeInterval(hour) }
            return min(staleDate, longest)
        case .end:
            guard let dismissalDate, dismissalDate > now else { return now.addingTimeInterval(4 * hour) }
            return min(dismissalDate, now.addingTimeInterval(4 * hour))
        }
    }

    static func epoch(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    static func isObject(_ data: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: data)) is [String: Any]
    }
}
