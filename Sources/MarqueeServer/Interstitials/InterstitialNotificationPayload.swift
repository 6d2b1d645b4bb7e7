import Foundation
import Playback
import Synchronization

/// A break's will-present or did-finish as the page receives it (`{"type": "interstitial", "notification": …}`).
public struct InterstitialNotificationPayload: Codable, Sendable, Hashable {
    /// `will-present` or `did-finish`.
    public var kind: String
    public var event: InterstitialEvent
    public var reason: String?
    public var message: String?
    public var primaryTime: Double

    init(_ notification: InterstitialNotification) {
        kind = notification.kind.rawValue
        event = notification.event
        reason = notification.reason?.rawValue
        message = notification.message
        primaryTime = notification.primaryTime
    }
}

/// The one listener `PlaybackSessions` tells of every interstitial notification (the server's
/// webhooks), settable without awaiting the actor.
public final class InterstitialListenerSlot: Sendable {
    public typealias Listener = @Sendable (InterstitialNotification, _ sessionID: String, _ assetID: String) -> Void
    private let listener = Mutex<Listener?>(nil)

    public init() {}

    /// Replaces the listener.
    public func set(_ new: Listener?) { listener.withLock { $0 = new } }

    func call(_ notification: InterstitialNotification, sessionID: String, assetID: String) {
        listener.withLock { $0 }?(notification, sessionID, assetID)
    }
}
