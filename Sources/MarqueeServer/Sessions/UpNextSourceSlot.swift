public import Playback
import Synchronization

/// Where `PlaybackSessions` learns what follows an item (the library's next episode), settable
/// without awaiting the actor. Asked when an item ends, so an episode made ready meanwhile is
/// offered ready.
public final class UpNextSourceSlot: Sendable {
    public typealias Source = @Sendable (_ assetID: String) async -> UpNextItem?
    private let source = Mutex<Source?>(nil)

    public init() {}

    /// Replaces the source.
    public func set(_ new: Source?) { source.withLock { $0 = new } }

    var current: Source? { source.withLock { $0 } }
}
