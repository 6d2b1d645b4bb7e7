import Foundation
import Testing
import VisualAnalysis

/// The `FrameTextIndex` contract (the Live Text search index), against SQLite (`FrameTextStore`,
/// one machine) and PostgreSQL (`PostgreSQLFrameTextIndex`, a cluster).
@Suite struct FrameTextIndexContractTests {
    @Test(arguments: NodeStoreKind.allCases)
    func anIndexedAssetIsFoundByAnyPartOfItsTextAndForgotten(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let (index, makeAsset) = try await database.frameTextIndex()
        let (asset, other) = (try await makeAsset(), try await makeAsset())
        #expect(try await index.isIndexed(assetID: asset) == false)
        try await index.replaceIndex(
            assetID: asset,
            with: [
                .init(time: 0, endTime: 2, text: "Quarterly KUMQUAT report\nFrame 1"),
                .init(time: 2, endTime: 4, text: ""),
                .init(time: 4, endTime: 6, text: "今日は会議です"),
            ])
        try await index.replaceIndex(assetID: other, with: [])
        #expect(try await index.isIndexed(assetID: asset))
        #expect(try await index.isIndexed(assetID: other))
        #expect(try await index.indexedAssetIDs() == [asset, other])

        let hits = try await index.search("kumquat", limit: 10)
        #expect(hits == [FrameTextStore.Hit(assetID: asset, time: 0, endTime: 2, frameText: "Quarterly KUMQUAT report\nFrame 1", query: "kumquat")])
        #expect(hits.first?.text == "Quarterly KUMQUAT report", "the line that matched")
        #expect(try await index.search("会議", limit: 10).map(\.time) == [4], "two characters of Japanese")
        #expect(try await index.search("100%_", limit: 10).isEmpty)
        #expect(try await index.search("  ", limit: 10).isEmpty)

        // Replacing keeps only the new frames.
        try await index.replaceIndex(assetID: asset, with: [.init(time: 1, endTime: 3, text: "Bergamot")])
        #expect(try await index.search("kumquat", limit: 10).isEmpty)
        #expect(try await index.search("bergamot", limit: 10).map(\.assetID) == [asset])

        try await index.forgetIndex(assetID: asset)
        #expect(try await index.isIndexed(assetID: asset) == false)
        #expect(try await index.search("bergamot", limit: 10).isEmpty)
        #expect(try await index.indexedAssetIDs() == [other])
    }

    @Test(arguments: NodeStoreKind.allCases)
    func anAssetIsClaimedForIndexingUntilItIsIndexed(kind: NodeStoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.cleanUp() }
        let (index, makeAsset) = try await database.frameTextIndex()
        let asset = try await makeAsset()
        #expect(try await index.claimIndexing(assetID: asset, indexer: "first", lease: .seconds(60)))
        #expect(try await index.renewIndexingClaim(assetID: asset, indexer: "first", lease: .seconds(60)))
        if index.isShared {
            // Another indexer is refused while the claim holds, and may take it once it is let go.
            #expect(try await index.claimIndexing(assetID: asset, indexer: "second", lease: .seconds(60)) == false)
            #expect(try await index.renewIndexingClaim(assetID: asset, indexer: "second", lease: .seconds(60)) == false)
            try await index.releaseIndexingClaim(assetID: asset, indexer: "second")  // not its claim: nothing changes
            #expect(try await index.claimIndexing(assetID: asset, indexer: "second", lease: .seconds(60)) == false)
            try await index.releaseIndexingClaim(assetID: asset, indexer: "first")
            #expect(try await index.claimIndexing(assetID: asset, indexer: "second", lease: .seconds(60)))
            #expect(try await index.renewIndexingClaim(assetID: asset, indexer: "first", lease: .seconds(60)) == false)
        }
        try await index.replaceIndex(assetID: asset, with: [.init(time: 0, endTime: 1, text: "Done")])
        // Indexed: nobody claims it again; forgotten (protected, then unprotected): claimable again.
        #expect(try await index.claimIndexing(assetID: asset, indexer: "third", lease: .seconds(60)) == false)
        try await index.forgetIndex(assetID: asset)
        #expect(try await index.claimIndexing(assetID: asset, indexer: "third", lease: .seconds(60)))
    }
}
