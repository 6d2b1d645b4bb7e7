import Foundation

/// What the center keeps beside its activities — devices' push tokens, push-to-start tokens,
/// broadcast channels and push outcomes — read and changed through the center, so callers
/// (the server's routes) never reach into its store.
extension ActivityCenter {
    /// A device's push-to-start tokens (every device's with nil), oldest first.
    public func pushToStartTokens(deviceID: String?) async throws -> [PushToStartToken] {
        try await store.pushToStartTokens(deviceID: deviceID)
    }

    /// Forgets a push-to-start token; false when there was none.
    public func deletePushToStartToken(_ token: String) async throws -> Bool {
        try await store.deletePushToStartToken(token)
    }

    /// A device's activity push tokens, oldest first.
    public func pushTokens(deviceID: String) async throws -> [ActivityPushToken] {
        try await store.pushTokens(deviceID: deviceID)
    }

    /// Forgets an activity push token; false when there was none.
    public func deletePushToken(_ token: String) async throws -> Bool {
        try await store.deletePushToken(token)
    }

    /// Every broadcast channel, oldest first.
    public func channels() async throws -> [BroadcastChannel] {
        try await store.channels()
    }

    public func channel(id: String) async throws -> BroadcastChannel? {
        try await store.channel(id: id)
    }

    /// Keeps a channel APNs created.
    public func save(_ channel: BroadcastChannel) async throws {
        try await store.save(channel)
    }

    /// Forgets a channel; false when there was none.
    @discardableResult
    public func deleteChannel(id: String) async throws -> Bool {
        try await store.deleteChannel(id: id)
    }

    /// Push outcomes, newest first, of one activity (or every one).
    public func outcomes(activityID: String?) async throws -> [PushOutcomeRecord] {
        try await store.outcomes(activityID: activityID)
    }
}
