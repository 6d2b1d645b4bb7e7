import Accounts
import DeviceLink
import Foundation
import Library
import LiveActivities
import PostgreSQLStores
import ServiceTesting
import Testing
import VisualAnalysis

/// The two implementations of each node store; every contract suite runs once against each.
/// A "database" is what two server nodes would share: a data folder for SQLite and the files,
/// a database on the shared throwaway PostgreSQL server (started once per test process).
enum NodeStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql

    var testDescription: String { rawValue }

    /// A fresh, empty database of this kind.
    func makeDatabase() async throws -> NodeDatabase {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-node-stores-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch self {
        case .sqlite: return NodeDatabase(folder: folder, postgres: nil)
        case .postgresql:
            return NodeDatabase(folder: folder, postgres: try DatabaseLocation(parsing: try await ThrowawayPostgreSQL.shared.makeDatabase()))
        }
    }
}

/// One shared database; each `open…` call opens the store again, as another node or a restart would.
struct NodeDatabase: Sendable {
    let folder: URL
    let postgres: DatabaseLocation?

    func library() async throws -> PostgreSQLLibraryStore? {
        guard case .postgres(let info) = postgres else { return nil }
        return try await PostgreSQLLibraryStore.open(info, timeout: .testStoreOpening)
    }

    func accounts() async throws -> any AccountStore {
        if let library = try await library() { return PostgreSQLAccountStore(sharing: library) }
        return try SQLiteAccountStore(url: folder.appendingPathComponent("accounts.sqlite"))
    }

    func activities() async throws -> any ActivityStore {
        if let library = try await library() { return PostgreSQLActivityStore(sharing: library) }
        return try SQLiteActivityStore(url: folder.appendingPathComponent("library.sqlite"))
    }

    func pairings() async throws -> any DevicePairingStore {
        if let library = try await library() { return PostgreSQLDevicePairingStore(sharing: library) }
        return DevicePairingFiles(directory: folder.appendingPathComponent("devicelink"))
    }

    /// The Live Text search index, and an asset it may index (on PostgreSQL its rows reference the asset's).
    func frameTextIndex() async throws -> (index: any FrameTextIndex, assetID: @Sendable () async throws -> String) {
        if let library = try await library() {
            return (
                PostgreSQLFrameTextIndex(sharing: library),
                {
                    let asset = Asset(title: "Indexed", status: .ready)
                    _ = try await library.insert(asset, job: false)
                    return asset.id
                }
            )
        }
        return (try FrameTextStore(url: folder.appendingPathComponent("frame-text.sqlite")), { UUID().uuidString.lowercased() })
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A date every store keeps exactly (SQLite keeps milliseconds; PostgreSQL microseconds).
func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }
