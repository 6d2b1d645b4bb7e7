public import Foundation

/// Which APNs environment a device token belongs to (a development build's tokens only work
/// on the sandbox host).
public enum PushEnvironment: String, Codable, Sendable, Hashable, CaseIterable {
    case production, sandbox
}

/// The push token an iPhone gave for one activity (`Activity.pushTokenUpdates`): updates
/// and the end of that activity are pushed to it.
public struct ActivityPushToken: Codable, Sendable, Hashable {
    /// The token, as hexadecimal text.
    public var token: String
    /// The activity it belongs to.
    public var activityID: String
    /// The device that registered it.
    public var deviceID: String
    /// The APNs environment it is valid on.
    public var environment: PushEnvironment
    /// When it was registered.
    public var createdAt: Date
    /// After a 429 from APNs, nothing is sent to this token before this date.
    public var backoffUntil: Date?

    /// A token not backed off.
    public init(token: String, activityID: String, deviceID: String, environment: PushEnvironment, createdAt: Date) {
        self.token = token
        self.activityID = activityID
        self.deviceID = deviceID
        self.environment = environment
        self.createdAt = createdAt
    }
}

/// A push-to-start token (`Activity.pushToStartTokenUpdates`): lets the server start an
/// activity of `attributesType` on that device.
public struct PushToStartToken: Codable, Sendable, Hashable {
    /// The token, as hexadecimal text.
    public var token: String
    /// The device that registered it.
    public var deviceID: String
    /// The activity type it can start (`attributes-type`).
    public var attributesType: String
    /// The APNs environment it is valid on.
    public var environment: PushEnvironment
    /// When it was registered.
    public var createdAt: Date

    /// A push-to-start token of `deviceID` for `attributesType`.
    public init(token: String, deviceID: String, attributesType: String, environment: PushEnvironment, createdAt: Date) {
        self.token = token
        self.deviceID = deviceID
        self.attributesType = attributesType
        self.environment = environment
        self.createdAt = createdAt
    }
}

/// A broadcast channel (iOS 18): one push to the channel reaches every device subscribed to
/// it, for activities many people follow (a premiere).
public struct BroadcastChannel: Codable, Sendable, Hashable, Identifiable {
    /// The id APNs gave the channel (base64).
    public var id: String
    /// The APNs environment the channel was created in.
    public var environment: PushEnvironment
    /// 0: no storage (only devices online get it); 1: the latest message is kept.
    public var storagePolicy: Int
    /// The activity it carries, if one is tied to it.
    public var activityID: String?
    /// When the channel was created.
    public var createdAt: Date

    /// A channel APNs created with `id`.
    public init(id: String, environment: PushEnvironment, storagePolicy: Int, activityID: String? = nil, createdAt: Date) {
        self.id = id
        self.environment = environment
        self.storagePolicy = storagePolicy
        self.activityID = activityID
        self.createdAt = createdAt
    }
}

/// What APNs answered to one push, kept so a person can see why an iPhone did not update.
public struct PushOutcomeRecord: Codable, Sendable, Hashable {
    /// The row's id; nil until the record is stored.
    public var id: Int64?
    /// The activity the push was for, when it was for one.
    public var activityID: String?
    /// The device token or the channel id.
    public var target: String
    /// The push's event: `start`, `update` or `end`.
    public var event: String
    /// The `apns-priority` it went with: 10 or 5.
    public var priority: Int
    /// `delivered`, `rejected`, `unregistered`, `throttled`, `failed`, `refused`.
    public var result: String
    /// APNs' HTTP status; nil when it never answered.
    public var status: Int?
    /// APNs' reason, or why the push was not sent.
    public var reason: String?
    /// The `apns-id` of the request, for finding the push in Apple's console.
    public var apnsID: String?
    /// How many times the push was sent (0 when it was refused before sending).
    public var attempts: Int
    /// When the outcome was known.
    public var at: Date

    /// A record not stored yet.
    public init(
        activityID: String?, target: String, event: String, priority: Int, result: String, status: Int?, reason: String?,
        apnsID: String?, attempts: Int, at: Date
    ) {
        self.activityID = activityID
        self.target = target
        self.event = event
        self.priority = priority
        self.result = result
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.attempts = attempts
        self.at = at
    }
}
