import Foundation
public import Playback
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
