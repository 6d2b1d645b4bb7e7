import Foundation
import PostgreSQLStores
import ServiceTesting
import Testing

@testable import Library

/// The two `LibraryStore` implementations; the store suites run once against each.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql

    var testDescription: String { rawValue }

    /// A fresh, empty store of this kind (SQLite in `folder`, PostgreSQL in a new database on the shared test server).
    func makeStore(in folder: URL) async throws -> any LibraryStore {
        try await open(try await makeDatabase(in: folder))
    }

    /// Where a fresh store of this kind keeps its rows.
    func makeDatabase(in folder: URL) async throws -> DatabaseLocation {
        switch self {
        case .sqlite: .sqlite(folder.appendingPathComponent("library.sqlite"))
        case .postgresql: try DatabaseLocation(parsing: try await ThrowawayPostgreSQL.shared.makeDatabase())
        }
    }

    /// Opens (another) store on `database`, as a second process would.
    func open(_ database: DatabaseLocation) async throws -> any LibraryStore {
        switch database {
        case .sqlite(let url): try SQLiteLibraryStore(url: url)
        case .postgres(let info): try await PostgreSQLLibraryStore.open(info, timeout: .testStoreOpening)
        }
    }
}

extension TemporaryLibrary {
    /// A fresh data directory whose library keeps its rows in a store of `kind`.
    init(_ kind: StoreKind) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let location = LibraryLocation(dataDirectory: root.appendingPathComponent("data"))
        try FileManager.default.createDirectory(at: location.dataDirectory, withIntermediateDirectories: true)
        let database = try await kind.makeDatabase(in: location.dataDirectory)
        let store = try await kind.open(database)
        self.init(root: root, library: try MediaLibrary(location: location, store: store), database: database)
    }
}

extension TemporaryLibrary {
    /// Another store on this library's database, as a second process would open it.
    func reopenedStore() async throws -> any LibraryStore {
        let database = database ?? .sqlite(library.location.databaseURL)
        switch database {
        case .sqlite: return try await StoreKind.sqlite.open(database)
        case .postgres: return try await StoreKind.postgresql.open(database)
        }
    }
}
