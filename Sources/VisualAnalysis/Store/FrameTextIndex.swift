/// The search index of frame text: per asset, the stretches of its frames and the text each
/// shows, and whether the asset has been indexed. Search reads it; indexing writes it.
///
/// On one machine it is `FrameTextStore` (beside the node's frame cache, in
/// `frame-text.sqlite`); in a cluster it is a table in the library's PostgreSQL database,
/// shared by every node and worker, so an asset is read for its text once per cluster. An
/// indexer claims an asset before reading it (`claimIndexing`), under a lease it renews while
/// it reads; a claim another indexer holds is refused, and one whose indexer died lapses with
/// its lease, so another takes the asset over.
public protocol FrameTextIndex: Sendable {
    /// Whether other processes index into this index too (a shared database), so claims matter.
    var isShared: Bool { get }

    /// Replaces what the index holds for `assetID` with `frames`, marks it indexed and ends any claim on it.
    func replaceIndex(assetID: String, with frames: [FrameTextStore.IndexedFrame]) async throws

    /// Whether `assetID`'s frames have been indexed.
    func isIndexed(assetID: String) async throws -> Bool

    /// Every asset that has been indexed (a sweep for assets still to index skips these).
    func indexedAssetIDs() async throws -> Set<String>

    /// Removes the index of `assetID` and any claim on it (the asset was deleted or marked protected).
    func forgetIndex(assetID: String) async throws

    /// Frames whose text contains `query` (case-insensitive), at most `limit`.
    func search(_ query: String, limit: Int) async throws -> [FrameTextStore.Hit]

    /// Claims the indexing of `assetID` for `indexer` for `lease`: true when it is not indexed
    /// and nobody else holds an unexpired claim on it; then only `indexer` reads it.
    func claimIndexing(assetID: String, indexer: String, lease: Duration) async throws -> Bool

    /// Extends `indexer`'s claim on `assetID` by `lease` from now; false when the claim is
    /// no longer its own (it lapsed and another indexer took the asset, or the asset was forgotten).
    func renewIndexingClaim(assetID: String, indexer: String, lease: Duration) async throws -> Bool

    /// Gives up `indexer`'s claim on `assetID` (its indexing was stopped), so another may take it at once.
    func releaseIndexingClaim(assetID: String, indexer: String) async throws
}
