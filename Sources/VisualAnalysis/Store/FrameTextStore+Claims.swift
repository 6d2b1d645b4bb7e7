/// A single-machine index has one indexer, the node's own `LiveTextService`: a claim is
/// granted whenever the asset is not indexed yet, and there is nothing to renew or release.
extension FrameTextStore {
    public var isShared: Bool { false }

    public func claimIndexing(assetID: String, indexer: String, lease: Duration) async throws -> Bool {
        try await !isIndexed(assetID: assetID)
    }

    public func renewIndexingClaim(assetID: String, indexer: String, lease: Duration) async throws -> Bool { true }

    public func releaseIndexingClaim(assetID: String, indexer: String) async throws {}
}
