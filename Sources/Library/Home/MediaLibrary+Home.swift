public import Foundation

/// The home screen and the viewing progress it is made of, one viewer at a time.
extension MediaLibrary {
    /// How many of a viewer's progress rows the home screen reads (most recent first).
    static let homeHistoryLimit = 500

    /// The home screen's rows for `viewer` (see `HomeRows.make`).
    public func home(viewer: String, now: Date = Date(), rules: HomeRows.Rules = HomeRows.Rules()) async throws -> HomeRows {
        let history = try await store.viewingHistory(viewer: viewer, limit: Self.homeHistoryLimit)
        let assets = try await displayedAssets()
        return HomeRows.make(assets: assets, history: history, now: now, rules: rules)
    }

    /// Stores how far a viewer got in an asset.
    public func recordViewing(_ progress: ViewingProgress) async throws {
        try await store.recordViewing(progress)
    }

    /// One viewer's progress, most recent first.
    public func viewingHistory(viewer: String, limit: Int = 500) async throws -> [ViewingProgress] {
        try await store.viewingHistory(viewer: viewer, limit: limit)
    }

    /// One viewer's progress in each of `assetIDs` that has some (see `LibraryStore`).
    public func viewingProgress(viewer: String, assetIDs: [String]) async throws -> [String: ViewingProgress] {
        try await store.viewingProgress(viewer: viewer, assetIDs: assetIDs)
    }
}
