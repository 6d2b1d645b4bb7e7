import Foundation

/// The library's rows as the server reads and writes them: the one door between the routes
/// and whichever `LibraryStore` holds them (SQLite or PostgreSQL), so a route never reaches
/// past the library into its store.
extension MediaLibrary {
    /// Every change to the library (on PostgreSQL, made by any node or worker).
    public var changes: LibraryChangeFeed { store.changes }

    /// The asset with `id`, unless it is in the trash (pass `includingTrashed` to see it anyway).
    public func asset(id: String, includingTrashed: Bool = false) async throws -> Asset? {
        try await store.asset(id: id, includingTrashed: includingTrashed)
    }

    /// Assets not in the trash matching `query` (own or overridden text), newest first.
    public func assets(matching query: String? = nil) async throws -> [Asset] {
        try await store.assets(matching: query)
    }

    /// Writes an asset's fields (its trash state stays as stored).
    public func save(_ asset: Asset) async throws {
        try await store.save(asset)
    }

    public func setProtected(_ isProtected: Bool, assetID: String) async throws {
        try await store.setProtected(isProtected, assetID: assetID)
    }

    public func override(for assetID: String) async throws -> MetadataOverride? {
        try await store.override(for: assetID)
    }

    public func overrides(for assetIDs: [String]) async throws -> [String: MetadataOverride] {
        try await store.overrides(for: assetIDs)
    }

    public func setOverride(_ override: MetadataOverride) async throws {
        try await store.setOverride(override)
    }

    public func position(for assetID: String) async throws -> PlaybackPosition? {
        try await store.position(for: assetID)
    }

    public func positions(for assetIDs: [String]) async throws -> [String: PlaybackPosition] {
        try await store.positions(for: assetIDs)
    }

    /// Stores where a viewer stopped; `nil` forgets it.
    public func setPosition(_ position: PlaybackPosition?, for assetID: String) async throws {
        try await store.setPosition(position, for: assetID)
    }

    /// Jobs, newest first, optionally of one asset.
    public func jobs(assetID: String? = nil) async throws -> [IngestJob] {
        try await store.jobs(assetID: assetID)
    }

    public func job(id: Int64) async throws -> IngestJob? {
        try await store.job(id: id)
    }

    /// Each asset's newest job, in one query.
    public func latestJobs(for assetIDs: [String]) async throws -> [String: IngestJob] {
        try await store.latestJobs(for: assetIDs)
    }

    /// Re-queues a failed job and wakes the worker.
    public func retry(jobID: Int64) async throws -> IngestJob {
        let job = try await store.retry(jobID: jobID)
        await worker.wake()
        return job
    }

    public func playerSettings() async throws -> PlayerSettings {
        try await store.playerSettings()
    }

    public func setPlayerSettings(_ settings: PlayerSettings) async throws {
        try await store.setPlayerSettings(settings)
    }

    /// The asset's authored breaks in timeline order (pre-rolls first, post-rolls last).
    ///
    /// A library ad scheduled before it was prepared (the samples' ad) has no length of its
    /// own: it takes the ad's, once known, so the break is served with its DURATION.
    public func authoredInterstitials(for assetID: String) async throws -> [AuthoredInterstitial] {
        var events = try await store.authoredInterstitials(for: assetID)
        for index in events.indices where events[index].duration == nil {
            guard let ad = events[index].content.assetID else { continue }
            events[index].duration = try await store.asset(id: ad)?.duration
        }
        return events
    }

    /// Adds or (with `replacing`) changes an authored event; `validate` sees it with the asset's
    /// other events inside the write, so two concurrent edits cannot both pass.
    public func saveAuthoredInterstitial(
        _ event: AuthoredInterstitial, replacing: Bool,
        validate: @Sendable (AuthoredInterstitial, [AuthoredInterstitial]) throws -> AuthoredInterstitial
    ) async throws -> AuthoredInterstitial {
        try await store.saveAuthoredInterstitial(event, replacing: replacing, validate: validate)
    }

    public func deleteAuthoredInterstitial(id: String, assetID: String) async throws {
        try await store.deleteAuthoredInterstitial(id: id, assetID: assetID)
    }
}
