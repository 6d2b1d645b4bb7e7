import Accounts
import DeviceLink
import Foundation
import Library
import LiveActivities
import PostgreSQLStores
import VisualAnalysis

/// The stores a server node keeps besides the library's, on the same database `--database`
/// names: accounts and their sign-in sessions and tokens, Live Activities, nearby-device
/// pairings, and the Live Text search index. With SQLite (the default) they are files in the data directory, as before; with
/// PostgreSQL they are tables beside the library's, so every node behind a load balancer
/// shares them.
struct NodeStores {
    let accounts: any AccountStore
    let activities: any ActivityStore
    /// Nil: the pairing files in the data directory (`devicelink/`), as `NearbyDevices` keeps them itself.
    let pairings: (any DevicePairingStore)?
    /// Nil: download records are files in the data directory (`downloads/`).
    let downloads: (any SharedDownloadRecords)?
    /// Nil: the frame-text index is the node's own `frame-text.sqlite`, beside its frame cache.
    let frameTextIndex: (any FrameTextIndex)?

    init(library store: any LibraryStore, location: LibraryLocation) throws {
        if let postgres = store as? PostgreSQLLibraryStore {
            accounts = PostgreSQLAccountStore(sharing: postgres)
            activities = PostgreSQLActivityStore(sharing: postgres)
            pairings = PostgreSQLDevicePairingStore(sharing: postgres)
            // One name per machine and data directory, so a restarted node takes its own downloads back at once.
            downloads = PostgreSQLDownloadRows(
                sharing: postgres, node: "\(ProcessInfo.processInfo.hostName):\(location.dataDirectory.standardizedFileURL.path)")
            frameTextIndex = PostgreSQLFrameTextIndex(sharing: postgres)
        } else {
            accounts = try SQLiteAccountStore(url: location.accountsDatabaseURL)
            activities = try SQLiteActivityStore(url: location.databaseURL)
            pairings = nil
            downloads = nil
            frameTextIndex = nil
        }
    }

    /// On a shared database, empties `service`'s cache of resolved credentials whenever another
    /// node signs someone out, revokes a token or changes an account, so it holds here at once.
    func keepCredentialCacheCurrent(_ service: AccountService) {
        guard let shared = accounts as? PostgreSQLAccountStore else { return }
        let changes = shared.changesFromOtherNodes()
        Task {
            for await _ in changes { service.invalidate() }
        }
    }
}
