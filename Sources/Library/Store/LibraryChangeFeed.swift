public import EventFeed
import Foundation

/// Something in the library changed that a page showing it would want to know.
public enum LibraryChange: Sendable, Hashable {
    /// An asset was added or changed (metadata, status, its job's progress, playback position).
    case assetChanged(String)
    /// An asset was deleted (moved to the trash) or purged.
    case assetRemoved(String)
}

/// Fans library changes out to every subscriber (the server's event stream), in order.
///
/// The store publishes after each write; a slow subscriber loses the oldest changes beyond
/// its buffer rather than holding anyone up (a page that reconnects reloads the list anyway).
public typealias LibraryChangeFeed = EventFeed<LibraryChange>
