public import Playback
import Synchronization

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
