import Foundation
import Logging
import PostgresNIO

/// The connection pool a node's other stores share with its `PostgreSQLLibraryStore` (one
/// pool, one schema, one migration history), with the two ways they use it: a transaction
/// whose own refusals (an `AccountError`, say) come out as they are, and a read.
struct PostgreSQLConnection: Sendable {
    /// Held so the pool stays open as long as any store uses it (the library store closes it when released).
    let library: PostgreSQLLibraryStore
    let client: PostgresClient
    let logger: Logger

    init(_ library: PostgreSQLLibraryStore) {
        self.library = library
        client = library.client
        logger = library.logger
    }

    func transaction<Result: Sendable>(_ what: String, _ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        do {
            try await library.awaitConnection()
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            if let refusal = error.closureError, !(refusal is PSQLError) { throw refusal }
            throw PostgreSQLStoreError(operation: what, underlying: (error.closureError ?? error.commitError ?? error.beginError) ?? error)
        } catch {
            throw PostgreSQLStoreError(operation: what, underlying: error)
        }
    }

    /// The rows of `query`, decoded (the library store's `read`, so every store reads one way).
    func rows<Result>(_ what: String, _ query: PostgresQuery, _ decode: (PostgresRow) throws -> Result) async throws -> [Result] {
        try await library.read(what, query, decode)
    }

    /// Runs a statement; the number of rows it returned (use `RETURNING` to count changes).
    @discardableResult
    func run(_ what: String, _ query: PostgresQuery) async throws -> Int {
        try await rows(what, query) { _ in () }.count
    }

    static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}
